import { describe, expect, it } from 'vitest';
import { expectError, PASSWORD, registerUser } from '../support/factories.js';
import { client } from '../support/http.js';
import { whileRefusing } from '../support/refused-writes.js';
import { manualClock, startTestServer } from '../support/server.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

describe('register', () => {
  it('creates an account, answers 201 with a working session token and the user', async () => {
    const res = await t.api.post('/v1/auth/register', {
      body: { email: 'Ada@Example.test', password: PASSWORD, name: 'Ada' },
    });
    expect(res.status).toBe(201);
    expect(res.body.user).toEqual({ id: expect.stringMatching(/^usr_/), email: 'ada@example.test', name: 'Ada' });
    expect(res.body.token.split('.')).toHaveLength(3);
    expect(new Date(res.body.expiresAt).toISOString()).toBe(res.body.expiresAt);
    const me = await t.api.get('/v1/whoami', { token: res.body.token });
    expect(me.body).toEqual({ type: 'session', user: res.body.user });
  });

  it('refuses an address already registered, in any letter case, with 409', async () => {
    await registerUser(t.api, 'taken@example.test');
    const res = await t.api.post('/v1/auth/register', { body: { email: 'TAKEN@example.test', password: PASSWORD } });
    expectError(res, 409, 'SERVICE_EMAIL_TAKEN');
  });

  it('gives one account when the same address registers twice at once', async () => {
    const attempts = await Promise.all(
      [1, 2, 3].map(() =>
        t.api.post('/v1/auth/register', { body: { email: 'race@example.test', password: PASSWORD } }),
      ),
    );
    expect(attempts.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('creates the account and its first session together, or neither', async () => {
    const body = { email: 'together@example.test', password: PASSWORD };
    // The session row, written after the account, cannot be written.
    const failed = await whileRefusing(t.server, 'INSERT', 'sessions', () => t.api.post('/v1/auth/register', { body }));
    expectError(failed, 409, 'SERVICE_CONFLICT');
    // No account was left behind: the address registers (not 409 SERVICE_EMAIL_TAKEN) and signs in.
    expect((await t.api.post('/v1/auth/register', { body })).status).toBe(201);
    expect((await t.api.post('/v1/auth/login', { body })).status).toBe(200);
  });

  it.each([
    [{ email: 'short@example.test', password: 'seven77' }, 'password'],
    [{ email: 'not-an-email', password: PASSWORD }, 'email'],
    [{ password: PASSWORD }, 'email'],
    [{ email: 'x@example.test', password: PASSWORD, role: 'OWNER' }, 'role'],
  ])('refuses invalid input %j with 400 naming %s', async (body, field) => {
    const res = await t.api.post('/v1/auth/register', { body });
    expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
    expect(res.body.message).toContain(field);
  });
});

describe('login and logout', () => {
  it('signs in with the right password, in any letter case of the address', async () => {
    const user = await registerUser(t.api, 'login@example.test');
    const res = await t.api.post('/v1/auth/login', { body: { email: 'LOGIN@example.test', password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
    expect(res.body.token).not.toBe(user.token);
  });

  it('answers 401 for a wrong password and for an unknown address alike', async () => {
    await registerUser(t.api, 'wrong@example.test');
    const wrong = await t.api.post('/v1/auth/login', {
      body: { email: 'wrong@example.test', password: 'not the password' },
    });
    const unknown = await t.api.post('/v1/auth/login', { body: { email: 'nobody@example.test', password: PASSWORD } });
    expectError(wrong, 401, 'SERVICE_UNAUTHENTICATED');
    expectError(unknown, 401, 'SERVICE_UNAUTHENTICATED');
    expect(wrong.body.message).toBe(unknown.body.message);
  });

  it('revokes the session at once on logout, leaving other sessions of the user working', async () => {
    const user = await registerUser(t.api);
    const other = await t.api.post('/v1/auth/login', { body: { email: user.email, password: PASSWORD } });
    expect((await t.api.get('/v1/projects', { token: user.token })).status).toBe(200);

    const out = await t.api.post('/v1/auth/logout', { token: user.token });
    expect(out.status).toBe(204);
    expectError(await t.api.get('/v1/projects', { token: user.token }), 401, 'SERVICE_UNAUTHENTICATED');
    expectError(await t.api.post('/v1/auth/logout', { token: user.token }), 401, 'SERVICE_UNAUTHENTICATED');
    expect((await t.api.get('/v1/projects', { token: other.body.token })).status).toBe(200);
  });
});

describe('session credentials', () => {
  it.each([
    ['no Authorization header', undefined],
    ['a malformed header', 'Token abc'],
    ['a garbage bearer token', 'Bearer not-a-jwt'],
    [
      'a JWT signed by someone else',
      'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c3JfMSIsInNpZCI6InNlc18xIn0.c2lnbmF0dXJl',
    ],
  ])('answers 401 SERVICE_UNAUTHENTICATED for %s', async (_what, authorization) => {
    const res = await t.api.get('/v1/projects', { headers: authorization ? { authorization } : {} });
    expectError(res, 401, 'SERVICE_UNAUTHENTICATED');
  });

  it('expires a session after 30 days', async () => {
    const clock = manualClock();
    const timed = await startTestServer({ clock });
    try {
      const timedApi = client(timed.url);
      const user = await registerUser(timedApi);
      clock.advance(29 * 24 * 3600 * 1000);
      expect((await timedApi.get('/v1/projects', { token: user.token })).status).toBe(200);
      clock.advance(2 * 24 * 3600 * 1000);
      expectError(await timedApi.get('/v1/projects', { token: user.token }), 401, 'SERVICE_UNAUTHENTICATED');
    } finally {
      await timed.dispose();
    }
  });
});
