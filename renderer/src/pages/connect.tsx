import { Button, Code, CopyButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useCreateKey } from '../api/keys';
import { can } from '../api/projects';
import { ApiKeyOnce } from '../components/api-key-once';
import { ErrorAlert } from '../components/error-alert';
import { SnippetTabs } from '../components/snippet-tabs';
import type { CreatedApiKey, Environment, Project } from '../sdk';
import { environmentLabel, MissingCapability, ProjectPage } from '../shell/project-page';
import { connectSnippets } from './connect-snippets';

export function ConnectPage() {
  return (
    <ProjectPage
      title="Connect"
      environmentScoped
      description="Everything your app needs to talk to this project: the server, a key, and code to paste."
    >
      {(project, environment) => <Connect key={environment} project={project} environment={environment} />}
    </ProjectPage>
  );
}

/** The server as the browser reached it: this page's own origin, in the desktop window too. */
const serverUrl = () => window.location.origin;

function Connect({ project, environment }: { project: Project; environment: Environment }) {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const createKey = useCreateKey(project.id, environment);
  const manage = can(project, 'keys:manage');
  const placeholder = `<your ${environment} API key>`;
  const snippets = connectSnippets({ url: serverUrl(), key: created?.key ?? placeholder, environment });
  return (
    <>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Title order={2} size="h4">
            Server
          </Title>
          <Group>
            <Code fz="md">{serverUrl()}</Code>
            <CopyButton value={serverUrl()}>
              {({ copied, copy }) => (
                <Button size="xs" variant="default" onClick={copy}>
                  {copied ? 'Copied' : 'Copy URL'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Text size="sm" c="dimmed">
            Project <Code>{project.id}</Code>, environment <strong>{environmentLabel(environment)}</strong>. The API is
            under <Code>/v1</Code>; the reference is at <a href="/docs">/docs</a>.
          </Text>
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Title order={2} size="h4">
            API key
          </Title>
          {created ? (
            <ApiKeyOnce secret={created.key} environment={environment} />
          ) : manage ? (
            <>
              <Text size="sm">
                Create a {environmentLabel(environment).toLowerCase()} key in one click: the snippets below then carry
                it. You can also manage keys on the API keys page.
              </Text>
              <Button
                w="fit-content"
                loading={createKey.isPending}
                color={environment === 'production' ? 'red' : undefined}
                onClick={() =>
                  createKey.mutate(`Connect page (${new Date().toISOString().slice(0, 10)})`, { onSuccess: setCreated })
                }
              >
                Create a {environmentLabel(environment).toLowerCase()} key
              </Button>
              <ErrorAlert title="The key was not created" error={createKey.error} />
            </>
          ) : (
            <MissingCapability project={project} what="create API keys" capability="keys:manage" />
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Title order={2} size="h4">
            Snippets
          </Title>
          <SnippetTabs snippets={snippets} />
        </Stack>
      </Paper>
    </>
  );
}
