import { Code, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { SwitchboardError } from '../sdk';

export interface DescribedError {
  code: string;
  message: string;
  requestId: string | null;
}

/** Any thrown value as the server's `{code, message, requestId}` (or the SDK's client-side code). */
export function describeError(error: unknown): DescribedError {
  if (error instanceof SwitchboardError)
    return { code: error.code, message: error.message, requestId: error.requestId };
  return { code: 'CLIENT_ERROR', message: error instanceof Error ? error.message : String(error), requestId: null };
}

/** True when the server answered that what was asked for does not exist (or is not the caller's to see). */
export function isNotFound(error: unknown): boolean {
  return error instanceof SwitchboardError && error.status === 404;
}

/** True when the server refused the session itself (expired, revoked): the caller is signed out. */
export function isSessionRefused(error: unknown): boolean {
  return error instanceof SwitchboardError && error.status === 401;
}

export function ErrorDetails({ error }: { error: unknown }) {
  const { code, message, requestId } = describeError(error);
  return (
    <Stack gap={4}>
      <Text size="sm">{message}</Text>
      <Text size="xs" c="dimmed">
        <Code>{code}</Code>
        {requestId ? (
          <>
            {' · request '}
            <Code>{requestId}</Code>
          </>
        ) : null}
      </Text>
    </Stack>
  );
}

/** Every failed call ends here (see query-client.ts): nothing fails silently. */
export function notifyError(error: unknown, title = 'The request failed'): void {
  const { requestId } = describeError(error);
  notifications.show({
    id: requestId ?? undefined,
    color: 'red',
    title,
    message: <ErrorDetails error={error} />,
    autoClose: 10_000,
    withCloseButton: true,
  });
}
