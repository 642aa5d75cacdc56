import { describe, expect, it } from 'vitest';
import { addMember, createKey, createProject, expectError, registerUser } from '../support/factories.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

describe('audit log', () => {
  it('records every control-plane change with who, what, when and the environment', async () => {
    const owner = await registerUser(t.api);
    const mate = await registerUser(t.api);
    const project = await createProject(t.api, owner, 'Audited');
    await t.api.patch(`/v1/projects/${project.id}`, { token: owner.token, body: { name: 'Audited 2' } });
    await addMember(t.api, project.id, owner, mate, 'VIEWER');
    await t.api.patch(`/v1/projects/${project.id}/members/${mate.id}`, {
      token: owner.token,
      body: { role: 'DEVELOPER' },
    });
    const key = await createKey(t.api, project.id, owner, 'staging', 'ci');
    await t.api.delete(`/v1/projects/${project.id}/api-keys/${key.id}?environment=staging`, { token: owner.token });
    await t.api.delete(`/v1/projects/${project.id}/members/${mate.id}`, { token: owner.token });

    const res = await t.api.get(`/v1/projects/${project.id}/audit-logs`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    const entries = res.body.data;
    expect(entries.map((e: { action: string }) => e.action)).toEqual([
      'member.removed',
      'api_key.revoked',
      'api_key.created',
      'member.role_changed',
      'member.added',
      'project.updated',
      'project.created',
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        id: expect.stringMatching(/^aud_/),
        projectId: project.id,
        actor: { type: 'user', id: owner.id, email: owner.email },
        createdAt: expect.stringMatching(/Z$/),
      });
    }
    const byAction = Object.fromEntries(entries.map((e: { action: string }) => [e.action, e]));
    expect(byAction['api_key.created']).toMatchObject({
      environment: 'staging',
      target: { type: 'api_key', id: key.id },
      details: { name: 'ci' },
    });
    expect(byAction['member.role_changed'].details).toMatchObject({ from: 'VIEWER', to: 'DEVELOPER' });
    expect(byAction['project.updated'].details).toEqual({ name: { from: 'Audited', to: 'Audited 2' } });
    expect(byAction['project.created'].environment).toBeNull();
    // The secret of the key is nowhere in the log.
    expect(JSON.stringify(entries)).not.toContain(key.key.split('.')[1]);
  });

  it('writes nothing for a change that was refused', async () => {
    const owner = await registerUser(t.api);
    const project = await createProject(t.api, owner);
    await t.api.patch(`/v1/projects/${project.id}/members/${owner.id}`, {
      token: owner.token,
      body: { role: 'VIEWER' },
    });
    await t.api.post(`/v1/projects/${project.id}/members`, {
      token: owner.token,
      body: { email: 'ghost@example.test', role: 'VIEWER' },
    });
    const res = await t.api.get(`/v1/projects/${project.id}/audit-logs`, { token: owner.token });
    expect(res.body.data.map((e: { action: string }) => e.action)).toEqual(['project.created']);
  });

  it('pages with an opaque cursor, without duplicates or gaps, and filters', async () => {
    const owner = await registerUser(t.api);
    const project = await createProject(t.api, owner);
    for (let i = 0; i < 7; i++)
      await createKey(t.api, project.id, owner, i % 2 ? 'production' : 'development', `k${i}`);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await t.api.get(`/v1/projects/${project.id}/audit-logs${query}`, { token: owner.token });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.data.map((e: { id: string }) => e.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(8);
    expect(new Set(seen).size).toBe(8);
    expect([...seen].sort().reverse()).toEqual(seen);

    const prod = await t.api.get(`/v1/projects/${project.id}/audit-logs?environment=production`, {
      token: owner.token,
    });
    expect(prod.body.data).toHaveLength(3);
    const created = await t.api.get(`/v1/projects/${project.id}/audit-logs?action=project.created`, {
      token: owner.token,
    });
    expect(created.body.data).toHaveLength(1);
  });

  it('is read-only: no route writes, changes or deletes entries', async () => {
    const owner = await registerUser(t.api);
    const project = await createProject(t.api, owner);
    const entries = (await t.api.get(`/v1/projects/${project.id}/audit-logs`, { token: owner.token })).body.data;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expectError(
        await t.api.request(method, `/v1/projects/${project.id}/audit-logs`, { token: owner.token, body: {} }),
        404,
        'SERVICE_ROUTE_NOT_FOUND',
      );
      expectError(
        await t.api.request(method, `/v1/projects/${project.id}/audit-logs/${entries[0].id}`, {
          token: owner.token,
          body: {},
        }),
        404,
        'SERVICE_ROUTE_NOT_FOUND',
      );
    }
  });

  it('is readable by VIEWER, not by DEVELOPER or BILLING', async () => {
    const owner = await registerUser(t.api);
    const project = await createProject(t.api, owner);
    for (const [role, status] of [
      ['VIEWER', 200],
      ['DEVELOPER', 403],
      ['BILLING', 403],
    ] as const) {
      const user = await registerUser(t.api);
      await addMember(t.api, project.id, owner, user, role);
      expect((await t.api.get(`/v1/projects/${project.id}/audit-logs`, { token: user.token })).status).toBe(status);
    }
  });
});
