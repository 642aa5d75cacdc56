// What each of the two isolation test files runs, at the same time in two workers (the examples project has two): a
// server of its own from the same seed (the same key text, the same conversation), used as if it were alone, and then
// read by the other file while both are up.
import { mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from 'switchboard/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

const KEY = 'sb_dev_isolationkey01.sameKeyTextInBothFiles0123456789';
const seed = {
  user: { email: 'dev@example.com', password: 'development only' },
  projects: [
    {
      name: 'Shared name',
      apiKeys: [{ name: 'backend', environment: 'development', key: KEY }],
      conversations: [{ environment: 'development', name: 'general' }],
    },
  ],
} as const;

/** Where the two files of one run (workers of the same Vitest process) leave word for each other. */
const meetingPlace = join(tmpdir(), `switchboard-isolation-${process.ppid}`);

/** Writes `what` for the other file to read. */
const say = (file: string, what: string, value: unknown) => {
  mkdirSync(meetingPlace, { recursive: true });
  writeFileSync(join(meetingPlace, `${file}.${what}`), JSON.stringify(value));
};

/** What the other file said, once it has (or undefined after `ms`). */
async function hear(file: string, what: string, ms: number): Promise<unknown> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    try {
      return JSON.parse(readFileSync(join(meetingPlace, `${file}.${what}`), 'utf8'));
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  return undefined;
}

export function isolatedSuite(file: 'first' | 'second'): void {
  const other = file === 'first' ? 'second' : 'first';
  let switchboard: TestServer<'Shared name'>;
  beforeAll(async () => {
    switchboard = await startTestServer({ seed });
  });
  afterAll(async () => {
    // Up until the other file has read it.
    await hear(other, 'done', 10_000);
    await switchboard.close();
    rmSync(join(meetingPlace, `${file}.server`), { force: true });
    rmSync(join(meetingPlace, `${file}.done`), { force: true });
    try {
      rmdirSync(meetingPlace); // the last to leave
    } catch {
      // the other file is still there
    }
  });

  /** The texts of the messages in conversation `id` of the server at `url`. */
  const texts = async ({ url, id }: { url: string; id: string }) => {
    const response = await fetch(`${url}/v1/chat/conversations/${id}/messages?limit=100`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    const { data } = (await response.json()) as { data: { text: string }[] };
    return data.map((message) => message.text).sort();
  };

  it('holds only what this file wrote, under the same key text as the other file, while both run', async () => {
    expect(switchboard.keys['Shared name'].development).toBe(KEY);
    const backend = switchboard.clients.server['Shared name'].development;
    const { id } = switchboard.seed.projects['Shared name'].conversations[0];
    const mine = [0, 1, 2].map((i) => `${file} ${i}`);
    for (const text of mine) await backend.messages.send(id, { senderId: file, text });
    const here = { url: switchboard.url, id };
    say(file, 'server', here);
    expect(await texts(here)).toEqual(mine);
    expect((await switchboard.clients.console.projects.list()).data).toHaveLength(1);

    // The other file's server, up at the same time: the same key text, its own ids, and only its messages.
    const there = (await hear(other, 'server', 10_000)) as typeof here | undefined;
    if (!there) throw new Error(`the ${other} isolation file did not start within 10 s: run both at once`);
    expect(there.url).not.toBe(here.url);
    expect(there.id).not.toBe(here.id);
    expect(await texts(there)).toEqual([0, 1, 2].map((i) => `${other} ${i}`));
    say(file, 'done', true);
  });
}
