import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectApiError, expectUsageError, ok, useCli } from '../support/cli.js';
import { createProject, registerUser } from '../support/factories.js';

const cli = useCli();

describe.concurrent('switchboard projects', () => {
  it('creates and lists projects with the caller’s role; --json prints the API’s JSON', async () => {
    const u = await cli.signedIn();
    expect(ok(await u.run('projects', 'list'))).toBe(
      'No projects yet. Create one with `switchboard projects create <name>`.\n',
    );
    const created = ok(await u.run('projects', 'create', 'Game night'));
    const id = /\((prj_[0-9A-Z]{26})\)/.exec(created)?.[1];
    expect(created).toContain(`Created project Game night (${id}).`);

    const table = ok(await u.run('projects', 'list')).split('\n');
    expect(table[0]).toMatch(/^\s+ID\s+NAME\s+ROLE\s+CREATED$/);
    expect(table[1]).toMatch(
      new RegExp(`^\\s+${id}\\s+Game night\\s+OWNER\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ$`),
    );

    const api = await cli.api.get('/v1/projects', { token: u.account.token });
    expect(await u.json('projects', 'list')).toEqual(api.body);
    expect(await u.json('projects', 'create', 'Second')).toMatchObject({ name: 'Second', role: 'OWNER' });
  });

  it('remembers the project chosen with `use`, per server, and marks it in the list', async () => {
    const u = await cli.signedIn();
    const a = await u.json('projects', 'create', 'A');
    const b = await u.json('projects', 'create', 'B');
    expect(ok(await u.run('projects', 'use', b.id))).toBe(`Using project B (${b.id}) on ${cli.server.url}.\n`);
    const config = JSON.parse(readFileSync(join(u.configDir, 'config.json'), 'utf8'));
    expect(config.servers[cli.server.url].project).toBe(b.id);
    const lines = ok(await u.run('projects', 'list')).split('\n');
    expect(lines.find((l) => l.includes(b.id))).toMatch(/^\*/);
    expect(lines.find((l) => l.includes(a.id))).toMatch(/^ /);
    expect(ok(await u.run('whoami'))).toContain(`Project in use: ${b.id}`);
  });

  it('refuses to use a project that does not exist or is someone else’s', async () => {
    const u = await cli.signedIn();
    const other = await registerUser(cli.api);
    const theirs = await createProject(cli.api, other);
    expectApiError(await u.run('projects', 'use', theirs.id), 'SERVICE_PROJECT_NOT_FOUND');
    expectApiError(await u.run('projects', 'use', 'prj_nope'), 'SERVICE_PROJECT_NOT_FOUND');
  });

  it('makes project commands take --project, else the project in use, else the only one, else refuse', async () => {
    const u = await cli.signedIn();
    expectUsageError(
      await u.run('keys', 'list'),
      /no project given, and you have none: create one with `switchboard projects create <name>`/,
    );
    const a = await u.json('projects', 'create', 'A');
    // With one project (issue 46), that one, named on stderr; stdout is the command's alone.
    const onlyOne = await u.run('--json', 'keys', 'create', '--name', 'in-a');
    expect(JSON.parse(ok(onlyOne))).toMatchObject({ name: 'in-a', environment: 'development' });
    expect(onlyOne.stderr).toContain(`Using project ${a.id} ("A"), your only one.`);
    const b = await u.json('projects', 'create', 'B');
    expectUsageError(
      await u.run('keys', 'list'),
      /no project given, and you have 2: pass --project <id>, or choose one with `switchboard projects use <id>`/,
    );
    ok(await u.run('projects', 'use', b.id));
    expect((await u.json('keys', 'list')).data).toEqual([]);
    expect((await u.json('keys', 'list', '--project', a.id)).data.map((k: { name: string }) => k.name)).toEqual([
      'in-a',
    ]);
  });
});
