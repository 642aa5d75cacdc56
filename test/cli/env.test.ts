import { describe, expect, it } from 'vitest';
import {
  type CliUser,
  expectApiError,
  expectUsageError,
  ok,
  runCliOnTerminal,
  terminalUnavailable,
  useCli,
} from '../support/cli.js';
import { createConversation, createKey, createRoom, sendMessage } from '../support/factories.js';

const cli = useCli();

/** Someone with a project in use holding a room and a message in development and in staging. */
async function withData(): Promise<CliUser & { projectId: string; keys: Record<'development' | 'staging', string> }> {
  const u = await cli.withProject('Reset');
  const keys = {
    development: (await createKey(cli.api, u.projectId, u.account, 'development')).key,
    staging: (await createKey(cli.api, u.projectId, u.account, 'staging')).key,
  };
  for (const key of Object.values(keys)) {
    await createRoom(cli.api, key);
    const conversation = await createConversation(cli.api, key, { members: ['alice'] });
    await sendMessage(cli.api, key, conversation.id, { senderId: 'alice', text: 'hello' });
  }
  return { ...u, keys };
}

const roomsOf = async (key: string) => (await cli.api.get('/v1/rooms', { token: key })).body.data.length;

describe.concurrent('switchboard env reset', () => {
  it('resets the environment named, with --yes, and says what it removed and what it kept', async () => {
    const u = await withData();
    const out = ok(await u.run('env', 'reset', '--environment', 'stg', '--yes'));
    expect(out).toContain(`Reset staging of ${u.projectId}. Removed:`);
    expect(out).toMatch(/^ {2}Rooms: +1$/m);
    expect(out).toMatch(/^ {2}Messages: +1$/m);
    expect(out).toContain('Kept: API keys, webhook endpoints (failure counts cleared), members and the audit log.');
    expect(await roomsOf(u.keys.staging)).toBe(0);
    expect(await roomsOf(u.keys.development)).toBe(1);

    const json = await u.json('env', 'reset', '--environment', 'development', '--yes');
    expect(json).toMatchObject({ environment: 'development', removed: { rooms: 1, conversations: 1, messages: 1 } });
    expect(await roomsOf(u.keys.development)).toBe(0);
  });

  it('without --yes and no terminal to confirm on, stops with a usage error and resets nothing', async () => {
    const u = await withData();
    expectUsageError(
      await u.run('env', 'reset', '--environment', 'staging'),
      /--yes is required when no terminal is attached to confirm on/,
    );
    expect(await roomsOf(u.keys.staging)).toBe(1);
  });

  it.skipIf(terminalUnavailable('the env reset confirmation test'))(
    'asks on a terminal, naming the environment and the project, and resets only on yes',
    async () => {
      const u = await withData();
      const env = { SWITCHBOARD_URL: cli.server.url };
      const question = `Reset staging of Reset (${u.projectId})?`;
      const declined = await runCliOnTerminal(['env', 'reset', '--environment', 'staging'], {
        home: u.home,
        env,
        answers: [['[y/N] ', 'n']],
      });
      expect(declined.code, declined.stdout).toBe(1);
      expect(declined.stdout).toContain(question);
      expect(declined.stdout).toContain('error: not confirmed: nothing was reset');
      expect(await roomsOf(u.keys.staging)).toBe(1);

      const confirmed = await runCliOnTerminal(['env', 'reset', '--environment', 'staging'], {
        home: u.home,
        env,
        answers: [['[y/N] ', 'y']],
      });
      expect(confirmed.code, confirmed.stdout).toBe(0);
      expect(confirmed.stdout).toContain(`Reset staging of ${u.projectId}. Removed:`);
      expect(await roomsOf(u.keys.staging)).toBe(0);
    },
  );

  it('is refused for production by the server, and needs --environment', async () => {
    const u = await cli.withProject('Production');
    expectApiError(await u.run('env', 'reset', '--environment', 'prod', '--yes'), 'SERVICE_PRODUCTION_ENVIRONMENT');
    expectUsageError(await u.run('env', 'reset', '--yes'), /required option '--environment <env>' not specified/);
    expectUsageError(await u.run('env', 'reset', '--environment', 'qa', '--yes'), /Accepted values: development/);
  });
});
