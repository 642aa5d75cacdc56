import { Badge, Button, Code, Group, Select, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Fragment, useState } from 'react';
import { useAuditPage } from '../api/audit';
import { can } from '../api/projects';
import { CursorPager } from '../components/cursor-pager';
import { QueryStatus } from '../components/error-alert';
import { Time } from '../components/time';
import { type AuditEntry, ENVIRONMENTS, type Project } from '../sdk';
import { environmentOf } from '../search';
import { environmentLabel, MissingCapability, ProjectPage } from '../shell/project-page';

const PAGE_SIZE = 25;

export function AuditPage() {
  return (
    <ProjectPage title="Audit log" description="Every change to the project, newest first. Entries are never edited.">
      {(project) =>
        can(project, 'audit:read') ? (
          <AuditLog project={project} />
        ) : (
          <MissingCapability project={project} what="read the audit log" capability="audit:read" />
        )
      }
    </ProjectPage>
  );
}

function AuditLog({ project }: { project: Project }) {
  const search = useSearch({ from: '/signed-in/projects/$projectId/audit' });
  const navigate = useNavigate({ from: '/projects/$projectId/audit' });
  const cursors = search.cursors ?? [];
  const page = useAuditPage(project.id, {
    limit: PAGE_SIZE,
    action: search.action,
    environment: search.environment,
    cursor: cursors.at(-1),
  });
  const [action, setAction] = useState(search.action ?? '');
  const go = (next: Partial<typeof search>) => navigate({ search: (prev) => ({ ...prev, ...next }) });
  return (
    <>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void go({ action: action.trim() || undefined, cursors: undefined });
        }}
      >
        <Group align="flex-end">
          <TextInput
            label="Action"
            placeholder="e.g. api_key.created"
            value={action}
            onChange={(event) => setAction(event.currentTarget.value)}
          />
          <Select
            label="Environment"
            data={[
              { value: 'any', label: 'Any environment' },
              ...ENVIRONMENTS.map((env) => ({ value: env, label: environmentLabel(env) })),
            ]}
            value={search.environment ?? 'any'}
            allowDeselect={false}
            onChange={(value) => void go({ environment: environmentOf(value), cursors: undefined })}
            w={200}
          />
          <Button type="submit" variant="default">
            Apply filter
          </Button>
          {search.action || search.environment ? (
            <Button
              variant="subtle"
              onClick={() => {
                setAction('');
                void go({ action: undefined, environment: undefined, cursors: undefined });
              }}
            >
              Clear filters
            </Button>
          ) : null}
        </Group>
      </form>
      <QueryStatus query={page} loading="Loading the audit log" failed="The audit log could not be loaded" />
      {page.data?.data.length === 0 ? <Text c="dimmed">No entries match.</Text> : null}
      {page.data?.data.length ? (
        <Table.ScrollContainer minWidth={760}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>Actor</Table.Th>
                <Table.Th>Environment</Table.Th>
                <Table.Th>Target</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Details</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {page.data.data.map((entry) => (
                <AuditRow key={entry.id} entry={entry} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <CursorPager nextCursor={page.data?.nextCursor} newer="Newer entries" older="Older entries" />
    </>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const [open, setOpen] = useState(false);
  const detailsId = `details-${entry.id}`;
  return (
    <Fragment>
      <Table.Tr>
        <Table.Td>
          <Time value={entry.createdAt} />
        </Table.Td>
        <Table.Td>
          <Code>{entry.action}</Code>
        </Table.Td>
        <Table.Td>{entry.actor.email ?? `${entry.actor.type} ${entry.actor.id ?? ''}`}</Table.Td>
        <Table.Td>
          {entry.environment ? (
            <Badge
              variant="light"
              color={entry.environment === 'production' ? 'red' : 'gray'}
              // The label's own width, not an ellipsis: a narrow column read "DEVELOPM…".
              styles={{ label: { overflow: 'visible' } }}
            >
              {entry.environment}
            </Badge>
          ) : (
            '—'
          )}
        </Table.Td>
        <Table.Td>
          <Text size="xs" ff="monospace">
            {entry.target.type} {entry.target.id}
          </Text>
        </Table.Td>
        <Table.Td>
          <Button
            size="xs"
            variant="subtle"
            aria-expanded={open}
            aria-controls={detailsId}
            aria-label={`${open ? 'Hide' : 'Show'} details of ${entry.action} at ${entry.createdAt}`}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide' : 'Details'}
          </Button>
        </Table.Td>
      </Table.Tr>
      {open ? (
        <Table.Tr id={detailsId}>
          <Table.Td colSpan={6}>
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {JSON.stringify({ id: entry.id, actor: entry.actor, details: entry.details }, null, 2)}
            </Code>
          </Table.Td>
        </Table.Tr>
      ) : null}
    </Fragment>
  );
}
