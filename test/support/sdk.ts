import { randomUUID } from 'node:crypto';
import { ConsoleClient } from '../../sdk/index.js';
import { PASSWORD } from './factories.js';

/** A fresh account, signed in through the SDK. */
export async function signedInClient(
  baseUrl: string,
  options: { email?: string; fetch?: typeof fetch } = {},
): Promise<ConsoleClient> {
  const client = new ConsoleClient({ baseUrl, fetch: options.fetch });
  await client.auth.register({ email: options.email ?? `sdk-${randomUUID()}@example.test`, password: PASSWORD });
  return client;
}

/** A `fetch` that records the URL of every request it passes on to the real one. */
export function recordingFetch(): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: (input, init) => {
      urls.push(String(input));
      return fetch(input, init);
    },
  };
}
