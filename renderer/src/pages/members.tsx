import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useAddMember, useInviteMember, useMembers, useRemoveMember, useSetMemberRole } from '../api/members';
import { can } from '../api/projects';
import { confirmDanger } from '../components/confirm';
import { ErrorAlert, QueryStatus } from '../components/error-alert';
import { Time } from '../components/time';
import { type Invitation, type Member, PROJECT_ROLES, type Project, type ProjectRole, SwitchboardError } from '../sdk';
import { useSession } from '../session/session-context';
import { MissingCapability, ProjectPage } from '../shell/project-page';

const ROLE_OPTIONS = PROJECT_ROLES.map((role) => ({ value: role, label: role }));

export function MembersPage() {
  return (
    <ProjectPage title="Members" description="Who can use this project’s control plane, and with which role.">
      {(project) =>
        can(project, 'members:read') ? (
          <MembersOfProject project={project} />
        ) : (
          <MissingCapability project={project} what="see the members" capability="members:read" />
        )
      }
    </ProjectPage>
  );
}

function MembersOfProject({ project }: { project: Project }) {
  const members = useMembers(project.id);
  const manage = can(project, 'members:manage');
  return (
    <>
      {manage ? (
        <AddMemberForm project={project} />
      ) : (
        <MissingCapability project={project} what="add, change or remove members" capability="members:manage" />
      )}
      <QueryStatus query={members} loading="Loading members" failed="The members could not be loaded" />
      {members.data ? (
        <Table.ScrollContainer minWidth={700}>
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Member</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Capabilities</Table.Th>
                <Table.Th>Joined</Table.Th>
                {manage ? <Table.Th>Actions</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.data.map((member) => (
                <MemberRow key={member.userId} project={project} member={member} manage={manage} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </>
  );
}

function MemberRow({ project, member, manage }: { project: Project; member: Member; manage: boolean }) {
  const { user } = useSession();
  const setRole = useSetMemberRole(project.id);
  const remove = useRemoveMember(project.id);
  const who = member.name ? `${member.name} (${member.email})` : member.email;
  const confirmRemove = () =>
    confirmDanger({
      title: `Remove ${member.email}?`,
      message: `They lose access to ${project.name} at once. Their account stays.`,
      confirm: 'Remove member',
      onConfirm: () =>
        remove.mutate(member.userId, {
          onSuccess: () => notifications.show({ color: 'green', message: `Removed ${member.email}` }),
        }),
    });
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500}>
          {member.name ?? member.email}
          {member.userId === user?.id ? (
            <Badge ml="xs" size="xs" variant="outline">
              you
            </Badge>
          ) : null}
        </Text>
        {member.name ? (
          <Text size="xs" c="dimmed">
            {member.email}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>
        {manage ? (
          <Select
            aria-label={`Role of ${who}`}
            data={ROLE_OPTIONS}
            value={member.role}
            allowDeselect={false}
            w={150}
            disabled={setRole.isPending}
            onChange={(role) => {
              if (role && role !== member.role)
                setRole.mutate(
                  { userId: member.userId, role: role as ProjectRole },
                  {
                    onSuccess: (changed) =>
                      notifications.show({ color: 'green', message: `${changed.email} is now ${changed.role}` }),
                  },
                );
            }}
          />
        ) : (
          <Badge variant="light">{member.role}</Badge>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          {member.capabilities.map((capability) => (
            <Badge key={capability} size="xs" variant="default" tt="none">
              {capability}
            </Badge>
          ))}
        </Group>
      </Table.Td>
      <Table.Td>
        <Time value={member.joinedAt} />
      </Table.Td>
      {manage ? (
        <Table.Td>
          <Button
            size="xs"
            color="red"
            variant="subtle"
            onClick={confirmRemove}
            loading={remove.isPending}
            aria-label={`Remove ${who}`}
          >
            Remove
          </Button>
        </Table.Td>
      ) : null}
    </Table.Tr>
  );
}

function AddMemberForm({ project }: { project: Project }) {
  const add = useAddMember(project.id);
  const invite = useInviteMember(project.id);
  const form = useForm<{ email: string; role: ProjectRole }>({ initialValues: { email: '', role: 'DEVELOPER' } });
  // The server's answer for an address without an account: offer what it suggests, an invitation.
  const noAccount = add.error instanceof SwitchboardError && add.error.code === 'SERVICE_USER_NOT_FOUND';
  return (
    <Paper withBorder p="md">
      <form
        onSubmit={form.onSubmit((values) => {
          invite.reset();
          add.mutate(values, {
            onSuccess: (member) => {
              notifications.show({ color: 'green', message: `Added ${member.email} as ${member.role}` });
              form.reset();
            },
          });
        })}
      >
        <Stack gap="xs">
          <Title order={2} size="h4">
            Add a member
          </Title>
          <Group align="flex-end">
            <TextInput
              label="Email of their account"
              type="email"
              required
              style={{ flex: 1 }}
              {...form.getInputProps('email')}
            />
            <Select label="Role" data={ROLE_OPTIONS} allowDeselect={false} w={150} {...form.getInputProps('role')} />
            <Button type="submit" loading={add.isPending}>
              Add member
            </Button>
          </Group>
          {invite.data ? null : <ErrorAlert title="The member was not added" error={add.error} />}
          {noAccount && !invite.data ? (
            <Button
              variant="light"
              w="fit-content"
              loading={invite.isPending}
              onClick={() => invite.mutate({ email: form.values.email, role: form.values.role })}
            >
              Invite {form.values.email} as {form.values.role} instead
            </Button>
          ) : null}
          {invite.data ? <InvitationLink invitation={invite.data} /> : null}
        </Stack>
      </form>
    </Paper>
  );
}

/** The link an invitee opens to register (and so join): shown once, as the server keeps only its signature. */
function InvitationLink({ invitation }: { invitation: Invitation }) {
  const params = new URLSearchParams({ invitation: invitation.token, email: invitation.email });
  const link = `${window.location.origin}/register?${params}`;
  return (
    <Alert color="green" title={`Invitation for ${invitation.email} (${invitation.role})`}>
      <Stack gap="xs">
        <Text size="sm">
          Send them this link: registering with it makes them a member. It works until{' '}
          <Time value={invitation.expiresAt} />.
        </Text>
        <Code block aria-label="Invitation link" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {link}
        </Code>
        <CopyButton value={link}>
          {({ copied, copy }) => (
            <Button size="xs" variant="default" w="fit-content" onClick={copy}>
              {copied ? 'Copied' : 'Copy invitation link'}
            </Button>
          )}
        </CopyButton>
      </Stack>
    </Alert>
  );
}
