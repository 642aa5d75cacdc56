import { Alert, Text } from '@mantine/core';
import type { Environment } from '../sdk';
import { SecretOnce } from './secret-once';

/** A new API key, shown this once, with what to do with it. */
export function ApiKeyOnce({ secret, environment }: { secret: string; environment: Environment }) {
  return (
    <SecretOnce
      secret={secret}
      label="The new API key"
      copyLabel="Copy key"
      lost="The server keeps only a hash of the secret. If you lose it, revoke this key and create a new one."
    >
      {environment === 'production' ? (
        <Alert color="red" title="A production key stays server-side">
          Keep it in your backend’s secrets. Never put it in a browser, a mobile app or a repository: clients get short-
          lived chat or RTC tokens that your server mints with it.
        </Alert>
      ) : null}
      <Text size="xs" c="dimmed">
        Use it as <code>Authorization: Bearer &lt;key&gt;</code> on the runtime API.
      </Text>
    </SecretOnce>
  );
}
