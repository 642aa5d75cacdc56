import { Alert, Badge, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { Time } from '../components/time';
import type { HostCredential, ViewerCredential } from '../sdk';

/** A just-issued host or viewer credential: both tokens, shown this once, each with copy. */
export function CredentialOnce({
  credential,
  onDone,
}: {
  credential: HostCredential | ViewerCredential;
  onDone(): void;
}) {
  const role = 'role' in credential ? (credential.role === 'HOST' ? 'Host' : 'Co-host') : 'Viewer';
  const publishes = credential.rtc.permissions.publish;
  return (
    <Stack gap="sm">
      <Alert color="yellow" title="Copy the tokens now: they are not shown again">
        The server does not keep them. If they are lost, issue a new credential for the same identity.
      </Alert>
      <Group gap="xs">
        <Badge variant="light">{role}</Badge>
        <Text size="sm">
          {publishes ? 'Publishes audio, video and data' : 'Watches only: no publish right'}; chat as{' '}
          {credential.chat.scope}.
        </Text>
      </Group>
      <Token
        label="RTC token"
        copyLabel="Copy the RTC token"
        value={credential.rtc.token}
        expiresAt={credential.rtc.expiresAt}
      />
      <Token
        label="Chat token"
        copyLabel="Copy the chat token"
        value={credential.chat.token}
        expiresAt={credential.chat.expiresAt}
      />
      <Group justify="space-between">
        <CopyButton value={JSON.stringify(credential, null, 2)}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy the whole credential (JSON)'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={onDone}>
          I have copied them
        </Button>
      </Group>
    </Stack>
  );
}

function Token({
  label,
  copyLabel,
  value,
  expiresAt,
}: {
  label: string;
  copyLabel: string;
  value: string;
  expiresAt: string;
}) {
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="xs" c="dimmed">
          Expires <Time value={expiresAt} />
        </Text>
      </Group>
      <Code block aria-label={label} style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {value}
      </Code>
      <Group>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button size="xs" color={copied ? 'teal' : 'blue'} onClick={copy}>
              {copied ? 'Copied' : copyLabel}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
