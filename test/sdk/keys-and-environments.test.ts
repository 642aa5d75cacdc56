import { describe, expect, expectTypeOf, it } from 'vitest';
import { type ConsoleClient, type Environment, ServerClient } from '../../sdk/index.js';
import { signedInClient } from '../support/sdk.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

async function project(): Promise<{ client: ConsoleClient; projectId: string }> {
  const client = await signedInClient(t.server.url);
  return { client, projectId: (await client.projects.create({ name: 'Envs' })).id };
}

describe('API keys through the SDK', () => {
  it('creates a development key when no environment is given, and shows its full text once', async () => {
    const { client, projectId } = await project();
    const created = await client.keys.create(projectId, { name: 'backend' });
    expect(created).toMatchObject({ name: 'backend', environment: 'development', lastUsedAt: null });
    expect(created.key).toMatch(/^sb_dev_[A-Za-z0-9]+\.[A-Za-z0-9]+$/);
    const [listed] = (await client.keys.list(projectId)).data;
    expect(listed).toEqual({
      id: created.id,
      name: 'backend',
      environment: 'development',
      createdAt: created.createdAt,
      lastUsedAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain(created.key.split('.')[1]);
  });

  it('keeps each environment’s keys apart when listing and revoking', async () => {
    const { client, projectId } = await project();
    const staging = await client.keys.create(projectId, { name: 'stg', environment: 'staging' });
    const production = await client.keys.create(projectId, { name: 'prod', environment: 'production' });
    expect(staging.key.startsWith('sb_stg_')).toBe(true);
    expect(production.key.startsWith('sb_prod_')).toBe(true);
    expect((await client.keys.list(projectId)).data).toEqual([]);
    expect((await client.keys.list(projectId, { environment: 'staging' })).data.map((k) => k.id)).toEqual([staging.id]);

    await expect(client.keys.revoke(projectId, production.id)).rejects.toMatchObject({
      status: 404,
      code: 'SERVICE_API_KEY_NOT_FOUND',
    });
    await client.keys.revoke(projectId, production.id, { environment: 'production' });
    expect((await client.keys.list(projectId, { environment: 'production' })).data).toEqual([]);
  });

  it('passes other letter cases to the server, which accepts them; the aliases belong to the CLI', async () => {
    const { client, projectId } = await project();
    // The types name the canonical form; JavaScript callers may send any letter case.
    const upper = 'PRODUCTION' as Environment;
    expect((await client.keys.create(projectId, { name: 'upper', environment: upper })).environment).toBe('production');
    for (const alias of ['prod', 'stg', 'dev', 'qa']) {
      await expect(
        client.keys.create(projectId, { name: 'alias', environment: alias as Environment }),
      ).rejects.toMatchObject({ status: 400, code: 'SERVICE_VALIDATION_FAILED' });
    }
    expectTypeOf<Environment>().toEqualTypeOf<'development' | 'staging' | 'production'>();
    // @ts-expect-error: an alias is not an environment of the API.
    await client.keys.list(projectId, { environment: 'prod' }).catch(() => undefined);
  });
});

describe('ServerClient', () => {
  it('answers whoami with the key’s id, project and environment', async () => {
    const { client, projectId } = await project();
    const created = await client.keys.create(projectId, { name: 'runtime', environment: 'Staging' as Environment });
    const server = new ServerClient({ baseUrl: t.server.url, apiKey: created.key });
    expect(await server.whoami()).toEqual({ type: 'api_key', keyId: created.id, projectId, environment: 'staging' });
    await client.keys.revoke(projectId, created.id, { environment: 'staging' });
    await expect(server.whoami()).rejects.toMatchObject({ status: 401, code: 'SERVICE_UNAUTHENTICATED' });
  });
});
