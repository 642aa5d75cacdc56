import { Button, Code, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import { useParams } from '@tanstack/react-router';
import { useErrorRecord } from '../../api/observability';
import { QueryStatus } from '../../components/error-alert';
import { Facts } from '../../components/facts';
import { AnchorLink } from '../../components/links';
import { Time } from '../../components/time';
import { useProjectRoute } from '../../shell/project-page';
import { StatusBadge } from './errors';

const CREDENTIALS = { key: 'API key', chat: 'Chat token', rtc: 'RTC token' } as const;

/** One failed request: what the app sent, what it was answered, and the request id to find it in the app's logs. */
export function ErrorDetailPage() {
  const { projectId, environment } = useProjectRoute();
  const { errorId } = useParams({ from: '/signed-in/projects/$projectId/observability/errors/$errorId' });
  const record = useErrorRecord(projectId, environment, errorId);
  const error = record.data;
  return (
    <Stack gap="md">
      <AnchorLink to="/projects/$projectId/observability/errors" params={{ projectId }} search={{ env: environment }}>
        ← All errors
      </AnchorLink>
      <QueryStatus query={record} loading="Loading the error" failed="This error could not be loaded" />
      {error ? (
        <>
          <Group gap="sm">
            <StatusBadge status={error.status} />
            <Title order={2} size="h4">
              {error.code}
            </Title>
          </Group>
          <Text>{error.message}</Text>
          <Group gap="xs">
            <Text size="sm">Request id</Text>
            <Code aria-label="Request id">{error.requestId}</Code>
            <CopyButton value={error.requestId}>
              {({ copied, copy }) => (
                <Button size="compact-sm" variant="light" color={copied ? 'teal' : 'blue'} onClick={copy}>
                  {copied ? 'Copied' : 'Copy request id'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Text size="sm" c="dimmed">
            The same id is the <Code>requestId</Code> of the error body and the <Code>X-Request-Id</Code> header your
            app received: search your app’s logs for it.
          </Text>
          <Facts
            label="Error details"
            rows={[
              ['When', <Time key="t" value={error.occurredAt} />],
              ['Request', <Code key="r">{`${error.method} ${error.route}`}</Code>],
              ['Status', error.status],
              ['Code', <Code key="c">{error.code}</Code>],
              ['Credential', CREDENTIALS[error.credential]],
              ['Environment', error.environment],
              ['Error record', <Code key="i">{error.id}</Code>],
            ]}
          />
        </>
      ) : null}
    </Stack>
  );
}
