// `switchboard/testing` as a package: what it starts without a seed, how it refuses a bad one, and how it ends.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { SeedError, startTestServer } from 'switchboard/testing';
import { describe, expect, it } from 'vitest';

const user = { email: 'dev@example.com', password: 'development only' };

describe('startTestServer', () => {
  it('starts without a seed: an account, a project "Test" and a key of each environment, ready to call', async () => {
    await using switchboard = await startTestServer();
    const { user: owner, projects } = switchboard.seed;
    expect(owner.email).toBe('owner@example.test');
    for (const environment of ['development', 'staging', 'production'] as const) {
      expect(switchboard.keys.Test[environment]).toMatch(/^sb_(dev|stg|prod)_/);
      expect(await switchboard.clients.server.Test[environment].whoami()).toMatchObject({
        projectId: projects.Test.id,
        environment,
      });
    }
    expect(projects.Test.apiKeys.map((key) => [key.name, key.environment])).toEqual([
      ['startTestServer', 'development'],
      ['startTestServer', 'staging'],
      ['startTestServer', 'production'],
    ]);
    expect((await switchboard.clients.console.auth.whoami()).user.id).toBe(owner.id);
  });

  it("keeps the seed's key text, and takes the seed as text too, comments and all", async () => {
    const key = 'sb_stg_seedtextkey0001.aSeedKeyGivenAsText012345';
    const text = `// a seed file's text
      { "user": ${JSON.stringify(user)},
        "projects": [{ "name": "App", "apiKeys": [{ "name": "ci", "environment": "STAGING", "key": "${key}" }] }] }`;
    await using switchboard = await startTestServer({ seed: text });
    expect(switchboard.keys.App.staging).toBe(key);
    expect(switchboard.keys.App.development).not.toBe(key);
    expect(switchboard.seed.projects.App.apiKeys.map((k) => k.name)).toEqual([
      'ci',
      'startTestServer',
      'startTestServer',
    ]);
  });

  it.each([
    [
      'a key of the wrong environment',
      {
        user,
        projects: [
          { name: 'A', apiKeys: [{ name: 'k', environment: 'staging', key: 'sb_dev_abcdefgh.0123456789abcdef' }] },
        ],
      },
      'projects[0].apiKeys[0].key: must be a staging key',
    ],
    ['a missing password', { user: { email: user.email } }, 'user.password: '],
    [
      'two projects of one name',
      { user, projects: [{ name: 'A' }, { name: 'A' }] },
      'projects[1].name: another project',
    ],
    ['text that is not JSON', '{ "user": }', "startTestServer's seed is not JSON"],
  ])('refuses a seed with %s, naming the field, before creating anything', async (_, seed, message) => {
    const start = startTestServer({ seed: seed as never });
    await expect(start).rejects.toThrow(SeedError);
    await expect(start).rejects.toThrow(message);
  });
});

describe('close()', () => {
  // In a process of its own, which must end by itself once the server is closed: nothing left open keeps it alive.
  const body = `
    const server = await startTestServer();
    const chat = await server.clients.chat('alice');
    await server.clients.console.projects.list();
    await server.close();
    await server.close();
    process.stdout.write(JSON.stringify({ dataDir: server.dataDir, connected: chat.connected }));`;

  it.each([
    ['import', ['--input-type=module', '-e', `import { startTestServer } from 'switchboard/testing';${body}`]],
    ['require', ['-e', `const { startTestServer } = require('switchboard/testing');(async () => {${body}})();`]],
  ])('removes the data folder and leaves nothing open (loaded with %s)', async (_, args) => {
    const { stdout } = await promisify(execFile)(process.execPath, args, { timeout: 15_000 });
    const { dataDir, connected } = JSON.parse(stdout);
    expect(dataDir).toMatch(/switchboard-test-/);
    expect(existsSync(dataDir)).toBe(false);
    expect(connected).toBe(false);
  });
});
