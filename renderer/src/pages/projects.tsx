import { Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate } from '@tanstack/react-router';
import { useCreateProject, useProjects } from '../api/projects';
import { ErrorAlert, QueryStatus } from '../components/error-alert';
import { AnchorLink } from '../components/links';
import { usePageTitle } from '../components/page-title';
import { Time } from '../components/time';

export function ProjectsPage() {
  const projects = useProjects();
  usePageTitle('Projects');
  return (
    <Stack maw={900} gap="lg">
      <Title order={1} size="h2">
        Projects
      </Title>
      <CreateProjectForm first={projects.data?.length === 0} />
      <QueryStatus query={projects} loading="Loading projects" failed="Your projects could not be loaded" />
      {projects.data?.length ? (
        <Table.ScrollContainer minWidth={500}>
          <Table highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Your role</Table.Th>
                <Table.Th>Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {projects.data.map((project) => (
                <Table.Tr key={project.id}>
                  <Table.Td>
                    <AnchorLink to="/projects/$projectId/connect" params={{ projectId: project.id }}>
                      {project.name}
                    </AnchorLink>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {project.id}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light">{project.role}</Badge>
                  </Table.Td>
                  <Table.Td>
                    <Time value={project.createdAt} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </Stack>
  );
}

function CreateProjectForm({ first }: { first: boolean }) {
  const create = useCreateProject();
  const navigate = useNavigate();
  const form = useForm({ initialValues: { name: '' } });
  return (
    <Paper withBorder p="md">
      <form
        onSubmit={form.onSubmit(({ name }) =>
          create.mutate(name, {
            onSuccess: (project) => navigate({ to: '/projects/$projectId/connect', params: { projectId: project.id } }),
          }),
        )}
      >
        <Stack gap="xs">
          {first ? (
            <Text>
              You have no project yet. A project holds your rooms, chat and keys, in three environments: development,
              staging and production.
            </Text>
          ) : null}
          <Group align="flex-end">
            <TextInput
              label="New project name"
              placeholder="My app"
              required
              style={{ flex: 1 }}
              {...form.getInputProps('name')}
            />
            <Button type="submit" loading={create.isPending}>
              Create project
            </Button>
          </Group>
          <ErrorAlert title="The project was not created" error={create.error} />
        </Stack>
      </form>
    </Paper>
  );
}
