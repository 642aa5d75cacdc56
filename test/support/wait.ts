import { createServer } from 'node:net';
import { vi } from 'vitest';

/**
 * Reads until `check` accepts the value (what reaches the server asynchronously, such as a socket's close), then
 * answers it; fails the test with the last value after `timeout` ms.
 */
export function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeout = 2000): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (!check(value)) throw new Error(`Still not as expected: ${JSON.stringify(value)?.slice(0, 500)}`);
      return value;
    },
    { timeout, interval: 20 },
  );
}

/** A loopback port with nothing listening on it (for a target that refuses connections). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Closes the server and answers 'closed', or says it was still closing after `ms`: a close that waits for `ws`'s 30 s
 * close timeout (for a client that never answers a close frame) reads as still closing.
 */
export async function closeWithin(server: { close(): Promise<void> }, ms = 10_000): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const later = new Promise<string>((resolve) => {
    timer = setTimeout(resolve, ms, `still closing after ${ms / 1000} s`);
  });
  try {
    return await Promise.race([server.close().then(() => 'closed'), later]);
  } finally {
    clearTimeout(timer);
  }
}
