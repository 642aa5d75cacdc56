import { randomUUID } from 'node:crypto';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ConsoleClient, type Project, type ProjectRole, SwitchboardError } from '../../sdk/index.js';
import { PASSWORD } from '../support/factories.js';
import { signedInClient } from '../support/sdk.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

describe('ConsoleClient: accounts and sessions', () => {
  it('registers, signs in and out, and uses the session token in between', async () => {
    const email = `Mixed-${randomUUID()}@Example.test`;
    const client = new ConsoleClient({ baseUrl: t.server.url });
    const registered = await client.auth.register({ email, password: PASSWORD, name: 'Ada' });
    expect(registered.user).toMatchObject({ id: expect.stringMatching(/^usr_/), name: 'Ada' });
    expect(client.token).toBe(registered.token);
    expect(await client.auth.whoami()).toEqual({ type: 'session', user: registered.user });

    await client.auth.logout();
    expect(client.token).toBeUndefined();
    const revoked = new ConsoleClient({ baseUrl: t.server.url, token: registered.token });
    await expect(revoked.auth.whoami()).rejects.toMatchObject({ status: 401, code: 'SERVICE_UNAUTHENTICATED' });

    const again = new ConsoleClient({ baseUrl: `${t.server.url}/` });
    const session = await again.auth.login({ email: email.toLowerCase(), password: PASSWORD });
    expect(session.user.id).toBe(registered.user.id);
    expect((await again.auth.whoami()).user.email).toBe(registered.user.email);
  });
});

describe('ConsoleClient: projects', () => {
  it('creates, lists, reads, renames and deletes a project, with the caller’s role', async () => {
    const client = await signedInClient(t.server.url);
    const created = await client.projects.create({ name: '  Game  ' });
    expect(created).toMatchObject({ id: expect.stringMatching(/^prj_/), name: 'Game', role: 'OWNER' });
    expect((await client.projects.list()).data.map((p) => p.id)).toEqual([created.id]);
    expect(await client.projects.get(created.id)).toEqual(created);
    const renamed = await client.projects.update(created.id, { name: 'Game 2' });
    expect(renamed.name).toBe('Game 2');
    await client.projects.delete(created.id);
    expect((await client.projects.list()).data).toEqual([]);
    await expect(client.projects.get(created.id)).rejects.toMatchObject({ code: 'SERVICE_PROJECT_NOT_FOUND' });
  });

  it('has the types of the server’s schemas', () => {
    expectTypeOf<Project['role']>().toEqualTypeOf<ProjectRole>();
    expectTypeOf<ProjectRole>().toEqualTypeOf<'OWNER' | 'ADMIN' | 'DEVELOPER' | 'VIEWER' | 'BILLING'>();
    expectTypeOf<ConsoleClient['projects']['create']>().parameter(0).toEqualTypeOf<{ name: string }>();
  });
});

describe('ConsoleClient: members', () => {
  it('adds, lists, re-roles and removes members, with their capabilities', async () => {
    const owner = await signedInClient(t.server.url);
    const mate = await signedInClient(t.server.url);
    const mateUser = (await mate.auth.whoami()).user;
    const project = await owner.projects.create({ name: 'Team' });

    const added = await owner.members.add(project.id, { email: mateUser.email, role: 'VIEWER' });
    expect(added).toMatchObject({
      userId: mateUser.id,
      role: 'VIEWER',
      capabilities: expect.arrayContaining(['audit:read']),
    });
    expect((await owner.members.list(project.id)).data.map((m) => m.role)).toEqual(['OWNER', 'VIEWER']);

    const promoted = await owner.members.setRole(project.id, mateUser.id, 'DEVELOPER');
    expect(promoted.capabilities).toContain('keys:manage');
    // The project carries the caller's own capabilities: what the member listing shows for them.
    expect(await mate.projects.get(project.id)).toMatchObject({
      role: 'DEVELOPER',
      capabilities: promoted.capabilities,
    });

    await owner.members.remove(project.id, mateUser.id);
    await expect(mate.projects.get(project.id)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses an address without an account, and an action the role lacks', async () => {
    const owner = await signedInClient(t.server.url);
    const viewer = await signedInClient(t.server.url);
    const project = await owner.projects.create({ name: 'Rules' });
    await expect(owner.members.add(project.id, { email: 'ghost@example.test', role: 'VIEWER' })).rejects.toMatchObject({
      status: 404,
      code: 'SERVICE_USER_NOT_FOUND',
    });
    await owner.members.add(project.id, { email: (await viewer.auth.whoami()).user.email, role: 'VIEWER' });
    const err = await viewer.keys.create(project.id, { name: 'nope' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SwitchboardError);
    expect(err).toMatchObject({ status: 403, code: 'SERVICE_PERMISSION_DENIED' });
    expect((err as SwitchboardError).message).toContain('keys:manage');
  });
});
