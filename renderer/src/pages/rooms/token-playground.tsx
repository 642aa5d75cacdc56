import {
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { decodeJwt } from 'jose';
import { useMintRtcToken } from '../../api/rooms';
import { ErrorAlert } from '../../components/error-alert';
import { Time } from '../../components/time';
import type { CreateRtcTokenInput, Environment, Project, Room, RtcToken } from '../../sdk';

/** Lifetimes offered, in seconds (the server takes 60 s to 7 days). */
const LIFETIMES = [
  { value: '600', label: '10 minutes' },
  { value: '3600', label: '1 hour' },
  { value: '21600', label: '6 hours (the default)' },
  { value: '86400', label: '1 day' },
  { value: '604800', label: '7 days' },
];

const FLAGS = [
  { name: 'publish', label: 'Publish media', hint: 'The master switch: off turns audio and video off' },
  { name: 'publishAudio', label: 'Publish audio', hint: 'Send the microphone' },
  { name: 'publishVideo', label: 'Publish video', hint: 'Send the camera' },
  { name: 'publishData', label: 'Publish data', hint: 'Send data messages and offer data channels' },
  { name: 'subscribe', label: 'Receive media', hint: 'Receive what the others publish' },
] as const;

type Flag = (typeof FLAGS)[number]['name'];
type Values = Record<Flag, boolean> & { identity: string; name: string; ttlSeconds: string };

/**
 * Mints an RTC token for an identity with the rights asked for, and shows what the server signed (the JWT's
 * claims, decoded here): what a backend's call to `POST /v1/rooms/{roomId}/rtc-tokens` would give its client.
 */
export function TokenPlayground({
  project,
  environment,
  room,
}: {
  project: Project;
  environment: Environment;
  room: Room;
}) {
  const mint = useMintRtcToken(project.id, environment, room.id);
  const form = useForm<Values>({
    initialValues: {
      identity: '',
      name: '',
      publish: true,
      publishAudio: true,
      publishVideo: true,
      publishData: true,
      subscribe: true,
      ttlSeconds: '21600',
    },
    validate: { identity: (value) => (value.trim() ? null : 'Who joins with the token') },
  });
  const submit = ({ identity, name, ttlSeconds, ...flags }: Values) => {
    const input: CreateRtcTokenInput = { identity, ...flags, ttlSeconds: Number(ttlSeconds) };
    if (name.trim()) input.name = name;
    mint.mutate(input);
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={form.onSubmit(submit)}>
        <Stack gap="sm">
          <div>
            <Title order={2} size="h4">
              Token playground
            </Title>
            <Text size="sm" c="dimmed">
              Mint an RTC token for this room, as your server does with{' '}
              <Code>POST /v1/rooms/{'{roomId}'}/rtc-tokens</Code>, and see what it carries. Minting here is recorded in
              the audit log.
            </Text>
          </div>
          <Group align="flex-start" grow>
            <TextInput label="Identity" placeholder="alice" required {...form.getInputProps('identity')} />
            <TextInput
              label="Display name"
              description="Optional"
              placeholder="Alice"
              {...form.getInputProps('name')}
            />
            <Select label="Lifetime" data={LIFETIMES} allowDeselect={false} {...form.getInputProps('ttlSeconds')} />
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
            {FLAGS.map((flag) => (
              <Switch
                key={flag.name}
                label={flag.label}
                description={flag.hint}
                // Audio and video without publish are refused by the server: they follow the master switch.
                disabled={(flag.name === 'publishAudio' || flag.name === 'publishVideo') && !form.values.publish}
                {...form.getInputProps(flag.name, { type: 'checkbox' })}
                onChange={(event) => {
                  const on = event.currentTarget.checked;
                  form.setFieldValue(flag.name, on);
                  if (flag.name === 'publish') {
                    form.setFieldValue('publishAudio', on);
                    form.setFieldValue('publishVideo', on);
                  }
                }}
              />
            ))}
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={mint.isPending}>
              Mint token
            </Button>
          </Group>
          <ErrorAlert title="No token was minted" error={mint.error} />
          {mint.data ? <MintedToken minted={mint.data} /> : null}
        </Stack>
      </form>
    </Paper>
  );
}

/** Claims whose value is a time in seconds since the epoch. */
const TIME_CLAIMS = new Set(['iat', 'exp', 'nbf']);

function MintedToken({ minted }: { minted: RtcToken }) {
  const claims = decodeJwt(minted.token);
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm">
          Token for <strong>{minted.identity}</strong>, valid until <Time value={minted.expiresAt} />
        </Text>
        <CopyButton value={minted.token}>
          {({ copied, copy }) => (
            <Button size="xs" variant="default" color={copied ? 'teal' : undefined} onClick={copy}>
              {copied ? 'Copied' : 'Copy token'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Code block aria-label="The minted token" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {minted.token}
      </Code>
      <Table aria-label="Decoded claims" withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Claim</Table.Th>
            <Table.Th>Value</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {Object.entries(claims).map(([claim, value]) => (
            <Table.Tr key={claim}>
              <Table.Td>
                <Code>{claim}</Code>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace" span>
                  {JSON.stringify(value)}
                </Text>
                {TIME_CLAIMS.has(claim) && typeof value === 'number' ? (
                  <Text size="xs" c="dimmed" span>
                    {' '}
                    (<Time value={new Date(value * 1000).toISOString()} />)
                  </Text>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed">
        Decoded in your browser; the signature is the server’s to check. A client joins with{' '}
        <Code>/v1/rtc?access_token=&lt;token&gt;</Code>.
      </Text>
    </Stack>
  );
}
