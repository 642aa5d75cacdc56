import { beforeAll, describe, expect, it } from 'vitest';
import { type CliUser, expectApiError, expectUsageError, ok, useCli } from '../support/cli.js';
import { addMember, createProject } from '../support/factories.js';

const cli = useCli();

let owner: CliUser & { projectId: string };
beforeAll(async () => {
  owner = await cli.withProject('Keys');
});

const KEY_TEXT = /sb_(dev|stg|prod)_[A-Za-z0-9]+\.[A-Za-z0-9]+/;
const NOT_SHOWN_AGAIN = /Warning: this key is not shown again/;
const SERVER_SIDE = /Warning: a production key stays server-side/;

/** A project's keys of one environment, as the API lists them to the owner. */
async function apiKeys(projectId: string, environment: string): Promise<{ id: string; name: string }[]> {
  const res = await cli.api.get(`/v1/projects/${projectId}/api-keys?environment=${environment}`, {
    token: owner.account.token,
  });
  return res.body.data;
}

describe.concurrent('switchboard keys create', () => {
  it('creates a development key by default and prints it once, warning that it is not shown again', async () => {
    const result = await owner.run('keys', 'create', '--name', 'backend');
    const out = ok(result);
    const id = /\((key_[0-9A-Z]{26})\)/.exec(out)?.[1];
    expect(out).toContain(`Created development API key "backend" (${id}):`);
    const key = KEY_TEXT.exec(out)?.[0] ?? '';
    expect(key.startsWith('sb_dev_')).toBe(true);
    expect(result.stderr).toMatch(NOT_SHOWN_AGAIN);
    // Only a production key is told to stay server-side.
    expect(result.stderr).not.toMatch(SERVER_SIDE);
    // The key works, and nothing shows its secret again.
    expect((await cli.api.get('/v1/whoami', { token: key })).body).toMatchObject({
      keyId: id,
      environment: 'development',
    });
    const listed = ok(await owner.run('keys', 'list'));
    expect(listed).toContain(id);
    expect(listed).not.toContain(key.split('.')[1]);
  });

  it.each([
    ['dev', 'development', 'dev'],
    ['STG', 'staging', 'stg'],
    ['Prod', 'production', 'prod'],
    ['PRODUCTION', 'production', 'prod'],
    ['Staging', 'staging', 'stg'],
  ])('takes --environment %s as %s', async (input, environment, segment) => {
    const result = await owner.run('--json', 'keys', 'create', '--name', `alias ${input}`, '--environment', input);
    const created = JSON.parse(ok(result));
    expect(created).toMatchObject({ name: `alias ${input}`, environment });
    expect(created.key.startsWith(`sb_${segment}_`)).toBe(true);
    // The warning that a production key stays server-side is for production keys alone (not `stg`, issue 46).
    if (environment === 'production') expect(result.stderr).toMatch(SERVER_SIDE);
    else expect(result.stderr).not.toMatch(SERVER_SIDE);
  });

  it.each(['qa', 'test', 'develop', 'prd', ''])(
    'refuses --environment %j, listing the accepted values',
    async (input) => {
      const name = `refused ${JSON.stringify(input)}`;
      expectUsageError(
        await owner.run('keys', 'create', '--name', name, '--environment', input),
        /Accepted values: development \(dev\), staging \(stg\), production \(prod\), in any letter case/,
      );
      for (const environment of ['development', 'staging', 'production'])
        expect((await apiKeys(owner.projectId, environment)).map((k) => k.name)).not.toContain(name);
    },
  );

  it('prints the API’s JSON, with the key, under --json; the warnings still go to stderr', async () => {
    const result = await owner.run('--json', 'keys', 'create', '--name', 'json', '--environment', 'prod');
    const created = JSON.parse(ok(result));
    expect(Object.keys(created).sort()).toEqual(['createdAt', 'environment', 'id', 'key', 'lastUsedAt', 'name']);
    expect(created.environment).toBe('production');
    expect(result.stderr).toMatch(SERVER_SIDE);
  });

  it('reports the API’s refusal for a role without keys:manage, exit code 1', async () => {
    const viewer = await cli.signedIn();
    await addMember(cli.api, owner.projectId, owner.account, viewer.account, 'VIEWER');
    const result = await viewer.run('keys', 'create', '--name', 'nope', '--project', owner.projectId);
    expectApiError(result, 'SERVICE_PERMISSION_DENIED');
    expect(result.stderr).toContain('Your role VIEWER does not have the capability keys:manage');
  });
});

describe.concurrent('switchboard keys list and revoke', () => {
  it('lists one environment at a time, default development, as a table or the API’s JSON', async () => {
    // A project of its own, so that the other tests' keys do not change the list under it.
    const { id: project } = await createProject(cli.api, owner.account, 'Listed');
    const list = (...args: string[]) => owner.run('keys', 'list', '--project', project, ...args);
    const staging = await owner.json(
      'keys',
      'create',
      '--name',
      'list-stg',
      '--environment',
      'stg',
      '--project',
      project,
    );
    const table = ok(await list('--environment', 'stg')).split('\n');
    expect(table[0]).toMatch(/^ID\s+NAME\s+ENVIRONMENT\s+CREATED\s+LAST USED$/);
    expect(table[1]).toMatch(new RegExp(`^${staging.id}\\s+list-stg\\s+staging\\s+\\S+ \\S+Z\\s+never$`));
    expect(ok(await list())).toBe('No active development keys.\n');
    expect(JSON.parse(ok(await list('--json', '--environment', 'Staging')))).toEqual({
      data: await apiKeys(project, 'staging'),
    });
    expectUsageError(await list('--environment', 'qa'), /Accepted values/);
  });

  it('revokes a key of the environment given; another environment’s key is not found', async () => {
    const prod = await owner.json('keys', 'create', '--name', 'to-revoke', '--environment', 'production');
    expectApiError(await owner.run('keys', 'revoke', prod.id), 'SERVICE_API_KEY_NOT_FOUND');
    expect((await cli.api.get('/v1/whoami', { token: prod.key })).status).toBe(200);
    expect(ok(await owner.run('keys', 'revoke', prod.id, '--environment', 'PROD'))).toBe(
      `Revoked production API key ${prod.id}.\n`,
    );
    expect((await cli.api.get('/v1/whoami', { token: prod.key })).status).toBe(401);
    expect((await apiKeys(owner.projectId, 'production')).map((k) => k.id)).not.toContain(prod.id);
    expectApiError(
      await owner.run('keys', 'revoke', prod.id, '--environment', 'production'),
      'SERVICE_API_KEY_NOT_FOUND',
    );
  });

  it('prints nothing on stdout for a revocation under --json (the API answers 204)', async () => {
    const key = await owner.json('keys', 'create', '--name', 'quiet');
    const result = await owner.run('--json', 'keys', 'revoke', key.id);
    expect(ok(result)).toBe('');
  });

  it('keeps other people out of the project', async () => {
    const stranger = await cli.signedIn();
    expectApiError(await stranger.run('keys', 'list', '--project', owner.projectId), 'SERVICE_PROJECT_NOT_FOUND');
  });
});
