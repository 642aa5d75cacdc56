import { Button, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { can, forgetProject, useDeleteProject, useRenameProject } from '../api/projects';
import { ErrorAlert } from '../components/error-alert';
import type { Project } from '../sdk';
import { MissingCapability, ProjectPage } from '../shell/project-page';
import { TestingTools } from './test-tools/testing-tools';

export function SettingsPage() {
  return (
    <ProjectPage title="Settings">
      {(project) => (
        <>
          <RenameProject project={project} />
          <TestingTools project={project} />
          <DeleteProject project={project} />
        </>
      )}
    </ProjectPage>
  );
}

function RenameProject({ project }: { project: Project }) {
  const rename = useRenameProject(project.id);
  const form = useForm({ initialValues: { name: project.name } });
  const allowed = can(project, 'project:write');
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Project name
        </Title>
        <form
          onSubmit={form.onSubmit(({ name }) =>
            rename.mutate(name, {
              onSuccess: (renamed) => notifications.show({ color: 'green', message: `Renamed to ${renamed.name}` }),
            }),
          )}
        >
          <Group align="flex-end">
            <TextInput label="Name" required readOnly={!allowed} style={{ flex: 1 }} {...form.getInputProps('name')} />
            {allowed ? (
              <Button type="submit" loading={rename.isPending}>
                Rename
              </Button>
            ) : null}
          </Group>
        </form>
        {allowed ? null : <MissingCapability project={project} what="rename the project" capability="project:write" />}
        <ErrorAlert title="The project was not renamed" error={rename.error} />
        <Text size="xs" c="dimmed" ff="monospace">
          {project.id}
        </Text>
      </Stack>
    </Paper>
  );
}

function DeleteProject({ project }: { project: Project }) {
  const [opened, { open, close }] = useDisclosure(false);
  const [typed, setTyped] = useState('');
  const remove = useDeleteProject(project.id);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const allowed = can(project, 'project:delete');
  return (
    <Paper withBorder p="md" style={{ borderColor: 'var(--mantine-color-red-outline)' }}>
      <Stack gap="xs">
        <Title order={2} size="h4">
          Delete this project
        </Title>
        <Text size="sm">
          Deletes the project with everything in it, in all three environments: keys, rooms, chat, webhooks and the
          audit log. This cannot be undone.
        </Text>
        {allowed ? (
          <Button color="red" variant="outline" w="fit-content" onClick={open}>
            Delete project…
          </Button>
        ) : (
          <MissingCapability project={project} what="delete the project" capability="project:delete" />
        )}
      </Stack>
      <Modal opened={opened} onClose={close} title={`Delete ${project.name}?`}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (typed !== project.name) return;
            remove.mutate(undefined, {
              onSuccess: async () => {
                notifications.show({ color: 'green', message: `Deleted ${project.name}` });
                await navigate({ to: '/' });
                forgetProject(queryClient, project.id);
              },
            });
          }}
        >
          <Stack>
            <Text size="sm">
              Type the project’s name, <strong>{project.name}</strong>, to confirm.
            </Text>
            <TextInput
              label="Project name"
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete="off"
              data-autofocus
            />
            <ErrorAlert title="The project was not deleted" error={remove.error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" color="red" disabled={typed !== project.name} loading={remove.isPending}>
                Delete forever
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}
