import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliUser, expectUsageError, ok, runCli, useCli } from '../support/cli.js';

const cli = useCli();

let owner: CliUser & { projectId: string };
beforeAll(async () => {
  owner = await cli.withProject('Audited');
  await owner.json('keys', 'create', '--name', 'a', '--environment', 'staging');
  await owner.json('keys', 'create', '--name', 'b', '--environment', 'production');
  await owner.json('keys', 'create', '--name', 'c');
});

describe.concurrent('switchboard audit', () => {
  it('prints the log newest first, and pages with --limit and --cursor', async () => {
    const lines = ok(await owner.run('audit'))
      .trimEnd()
      .split('\n');
    expect(lines[0]).toMatch(/^TIME\s+ACTION\s+ACTOR\s+TARGET\s+ENVIRONMENT$/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/)[1])).toEqual([
      'api_key.created',
      'api_key.created',
      'api_key.created',
      'project.created',
    ]);
    expect(lines[1]).toMatch(
      new RegExp(`api_key\\.created\\s+${owner.account.email}\\s+api_key key_\\S+\\s+development$`),
    );

    const first = ok(await owner.run('audit', '--limit', '3'));
    const cursor = /--cursor (\S+)$/m.exec(first)?.[1] ?? '';
    expect(cursor).not.toBe('');
    const next = ok(await owner.run('audit', '--limit', '3', '--cursor', cursor));
    expect(next).toContain('project.created');
    expect(next).not.toContain('--cursor');
  });

  it('filters by action and by environment (aliases accepted), and prints the API’s page with --json', async () => {
    const page = await owner.json('audit', '--environment', 'STG');
    expect(page.nextCursor).toBeNull();
    expect(page.data).toMatchObject([{ action: 'api_key.created', environment: 'staging', details: { name: 'a' } }]);
    const created = await owner.json('audit', '--action', 'project.created');
    expect(created.data.map((e: { action: string }) => e.action)).toEqual(['project.created']);
    expect(ok(await owner.run('audit', '--action', 'nothing.happened'))).toBe('No audit log entries.\n');
  });

  it('refuses a bad --limit or --environment as a usage error', async () => {
    for (const limit of ['0', '201', 'ten', '-1'])
      expectUsageError(await owner.run('audit', '--limit', limit), /Give a whole number from 1 to 200/);
    expectUsageError(await owner.run('audit', '--environment', 'qa'), /Accepted values/);
  });
});

describe.concurrent('switchboard status', () => {
  it('shows the server, who is signed in and the project in use', async () => {
    const text = ok(await owner.run('status'));
    expect(text).toContain(`Server:         ${cli.server.url}`);
    expect(text).toContain(`Signed in as:   ${owner.account.email} (${owner.account.id})`);
    expect(text).toContain(`Project in use: Audited (${owner.projectId}), role OWNER`);
    expect(await owner.json('status')).toMatchObject({
      url: cli.server.url,
      user: { id: owner.account.id },
      project: { id: owner.projectId, role: 'OWNER' },
    });
    const nobody = await runCli(['status'], { home: cli.newHome(), env: { SWITCHBOARD_URL: cli.server.url } });
    expect(ok(nobody)).toContain('Signed in as:   nobody (run `switchboard login`)');
    expect(ok(nobody)).not.toContain('Nodes:');
  });

  it('lists the nodes, where each listens, to an owner signed in (without the admin token)', async () => {
    const { port } = new URL(cli.server.url);
    const text = ok(await owner.run('status'));
    expect(text).toMatch(
      new RegExp(
        `^Nodes: +1 live \\((one server, no Redis|connected through Redis)\\)\n +127\\.0\\.0\\.1:${port}  node_\\S+  `,
        'm',
      ),
    );
    expect(text).toMatch(/\d+ realtime, \d+ signaling as of now {2}\(answered\)$/m);
    // The key in use by its id's first characters, no rotation under way (docs/deployment.md).
    expect(text).toMatch(/^Secret key: +\S{12}$/m);
    const { nodes } = await owner.json('status');
    expect(nodes.data).toMatchObject([{ host: '127.0.0.1', port: Number(port), self: true }]);
    expect(nodes.secretKey).toMatchObject({ replaced: null, pending: 0, rotation: 'none' });
    // Signed in, owning no project: no nodes.
    const member = await cli.signedIn();
    expect(ok(await member.run('status'))).not.toContain('Nodes:');
  });

  it('shows nobody signed in once the server no longer accepts the stored session', async () => {
    const u = await cli.signedIn();
    const { token } = JSON.parse(readFileSync(join(u.configDir, 'credentials.json'), 'utf8')).servers[cli.server.url]
      .session;
    await cli.api.post('/v1/auth/logout', { token });
    expect(await u.json('status')).toEqual({ url: cli.server.url, user: null, project: null });
  });

  it('--env-file prints the URL and a development key as KEY=value lines, the same key each time', async () => {
    const u = await cli.withProject('Env file');
    const first = await u.run('status', '--env-file');
    const lines = ok(first).trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`SWITCHBOARD_URL=${cli.server.url}`);
    const key = lines[1].replace(/^SWITCHBOARD_API_KEY=/, '');
    expect(key).toMatch(/^sb_dev_\S+$/);
    expect(first.stderr).toMatch(/Created development API key "cli status"/);
    expect((await cli.api.get('/v1/whoami', { token: key })).body).toMatchObject({
      projectId: u.projectId,
      environment: 'development',
    });
    // Kept with the session, readable by the user alone.
    expect(readFileSync(join(u.configDir, 'credentials.json'), 'utf8')).toContain(key);

    const again = await u.run('status', '--env-file');
    expect(ok(again)).toBe(ok(first));
    expect(again.stderr).toBe('');
    expect(await u.json('status', '--env-file')).toEqual({ SWITCHBOARD_URL: cli.server.url, SWITCHBOARD_API_KEY: key });
  });

  it('--env-file makes a new key once the one it printed is revoked', async () => {
    const u = await cli.withProject('Rotated');
    const first = (await u.json('status', '--env-file')).SWITCHBOARD_API_KEY;
    const [keyInfo] = (await u.json('keys', 'list')).data;
    expect(keyInfo.name).toBe('cli status');
    ok(await u.run('keys', 'revoke', keyInfo.id));
    const second = (await u.json('status', '--env-file')).SWITCHBOARD_API_KEY;
    expect(second).not.toBe(first);
    expect((await cli.api.get('/v1/whoami', { token: second })).status).toBe(200);
  });

  it('--env-file needs a project', async () => {
    const u = await cli.signedIn();
    expectUsageError(await u.run('status', '--env-file'), /no project given/);
  });
});
