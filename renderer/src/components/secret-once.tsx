import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import type { Environment } from '../sdk';

/** A new key's full text, shown this once, with copy-to-clipboard and what to do with it. */
export function SecretOnce({ secret, environment }: { secret: string; environment: Environment }) {
  return (
    <Stack gap="sm">
      <Alert color="yellow" title="Copy it now: it is not shown again">
        The server keeps only a hash of the secret. If you lose it, revoke this key and create a new one.
      </Alert>
      {environment === 'production' ? (
        <Alert color="red" title="A production key stays server-side">
          Keep it in your backend’s secrets. Never put it in a browser, a mobile app or a repository: clients get short-
          lived chat or RTC tokens that your server mints with it.
        </Alert>
      ) : null}
      <Code block aria-label="The new API key" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {secret}
      </Code>
      <Group>
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button color={copied ? 'teal' : 'blue'} onClick={copy}>
              {copied ? 'Copied' : 'Copy key'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="xs" c="dimmed">
        Use it as <code>Authorization: Bearer &lt;key&gt;</code> on the runtime API.
      </Text>
    </Stack>
  );
}
