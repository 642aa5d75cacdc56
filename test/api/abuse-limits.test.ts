import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProject,
  expectError,
  mintChatToken,
  PASSWORD,
  projectWithKeys,
  registerUser,
} from '../support/factories.js';
import { type Client, client } from '../support/http.js';
import { manualClock, startTestServer, type TestServer } from '../support/server.js';
import { connectRealtime } from '../support/socket-client.js';

const login = (api: Client, email: string, password: string) =>
  api.post('/v1/auth/login', { body: { email, password } });

function expectRateLimited(res: { status: number; body: any; headers: Headers }) {
  expectError(res, 429, 'SERVICE_RATE_LIMITED');
  const seconds = Number(res.headers.get('retry-after'));
  expect(seconds).toBeGreaterThanOrEqual(1);
  return seconds;
}

describe('sign-in limits (production mode, by the server clock)', () => {
  const clock = manualClock();
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startTestServer({ mode: 'production', clock, security: { registration: 'open' } });
    api = client(server.url);
  });
  afterAll(() => server.dispose());

  it('refuses an address after 10 failed sign-ins, even with the right password, for at most the window', async () => {
    const user = await registerUser(api);
    for (let i = 0; i < 10; i++)
      expectError(await login(api, user.email, 'wrong password'), 401, 'SERVICE_UNAUTHENTICATED');
    const seconds = expectRateLimited(await login(api, user.email, PASSWORD));
    expect(seconds).toBeLessThanOrEqual(15 * 60 + 1);
    // Refused attempts count nothing: hammering does not make the wait longer.
    for (let i = 0; i < 5; i++) expectRateLimited(await login(api, user.email, 'wrong password'));
    expect(Number((await login(api, user.email, PASSWORD)).headers.get('retry-after'))).toBeLessThanOrEqual(seconds);
    // Other addresses are not held up by it.
    const other = await registerUser(api);
    expect((await login(api, other.email, PASSWORD)).status).toBe(200);

    clock.advance(seconds * 1000);
    expect((await login(api, user.email, PASSWORD)).status).toBe(200);
    // A successful sign-in clears the address's count.
    for (let i = 0; i < 9; i++) await login(api, user.email, 'wrong password');
    expect((await login(api, user.email, PASSWORD)).status).toBe(200);
  }, 60_000);

  it('refuses a client that fails 30 sign-ins across addresses (password spraying)', async () => {
    clock.advance(60 * 60_000);
    for (let i = 0; i < 30; i++) {
      expectError(await login(api, `nobody-${i}@example.test`, 'guess'), 401, 'SERVICE_UNAUTHENTICATED');
    }
    expectRateLimited(await login(api, 'nobody-else@example.test', 'guess'));
    clock.advance(30 * 60_000);
    expectError(await login(api, 'nobody-else@example.test', 'guess'), 401, 'SERVICE_UNAUTHENTICATED');
  }, 60_000);

  it('limits registrations per client to 10 an hour', async () => {
    clock.advance(2 * 60 * 60_000);
    for (let i = 0; i < 10; i++) await registerUser(api);
    expectRateLimited(
      await api.post('/v1/auth/register', { body: { email: 'late@example.test', password: PASSWORD } }),
    );
  });
});

describe('sign-in limits in local mode', () => {
  it('keep the per-address limit but spare the developer’s own machine the per-client ones', async () => {
    // A clock that stands still: limits count in windows of the server clock, and a window that ended halfway
    // through the attempts (as at 04:00:00 in one CI run) would start the count again.
    const server = await startTestServer({ clock: manualClock() });
    const api = client(server.url);
    try {
      for (let i = 0; i < 31; i++) await login(api, `nobody-${i}@example.test`, 'guess');
      const user = await registerUser(api);
      for (let i = 0; i < 10; i++) await login(api, user.email, 'wrong password');
      expectRateLimited(await login(api, user.email, PASSWORD));
      for (let i = 0; i < 11; i++) await registerUser(api);
    } finally {
      await server.dispose();
    }
  }, 60_000);
});

describe('registration policy first-only (the production default)', () => {
  const clock = manualClock();
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startTestServer({ mode: 'production', clock });
    api = client(server.url);
  });
  afterAll(() => server.dispose());

  it('lets the first account register, then only people a project invited', async () => {
    const owner = await registerUser(api, 'owner@example.test');
    const refused = await api.post('/v1/auth/register', { body: { email: 'mate@example.test', password: PASSWORD } });
    expectError(refused, 403, 'SERVICE_REGISTRATION_CLOSED');
    expect(refused.body.message).toContain('switchboard members invite');

    const project = await createProject(api, owner);
    const invited = await api.post(`/v1/projects/${project.id}/invitations`, {
      token: owner.token,
      body: { email: 'Mate@Example.test', role: 'DEVELOPER' },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect(invited.body).toMatchObject({ email: 'mate@example.test', projectId: project.id, role: 'DEVELOPER' });
    expect(Date.parse(invited.body.expiresAt) - clock.now()).toBe(72 * 3_600_000);

    const wrongAddress = await api.post('/v1/auth/register', {
      body: { email: 'someone@example.test', password: PASSWORD, invitation: invited.body.token },
    });
    expectError(wrongAddress, 400, 'SERVICE_VALIDATION_FAILED');
    expect(wrongAddress.body.message).toContain('another address');

    const mate = await api.post('/v1/auth/register', {
      body: { email: 'mate@example.test', password: PASSWORD, invitation: invited.body.token },
    });
    expect(mate.status, JSON.stringify(mate.body)).toBe(201);
    const members = await api.get(`/v1/projects/${project.id}/members`, { token: owner.token });
    expect(members.body.data.map((m: any) => [m.email, m.role])).toEqual([
      ['owner@example.test', 'OWNER'],
      ['mate@example.test', 'DEVELOPER'],
    ]);
    const audit = await api.get(`/v1/projects/${project.id}/audit-logs`, { token: owner.token });
    expect(audit.body.data.map((e: any) => e.action)).toEqual(
      expect.arrayContaining(['member.invited', 'member.added']),
    );

    // Used once: the address now has an account.
    const again = await api.post('/v1/auth/register', {
      body: { email: 'mate@example.test', password: PASSWORD, invitation: invited.body.token },
    });
    expectError(again, 409, 'SERVICE_EMAIL_TAKEN');
    const existing = await api.post(`/v1/projects/${project.id}/invitations`, {
      token: owner.token,
      body: { email: 'mate@example.test', role: 'VIEWER' },
    });
    expectError(existing, 409, 'SERVICE_ACCOUNT_EXISTS');
  });

  it('refuses an expired invitation and lets only members:manage invite, only an OWNER an OWNER', async () => {
    const owner = await api.post('/v1/auth/login', { body: { email: 'owner@example.test', password: PASSWORD } });
    const token = owner.body.token as string;
    const project = await api.post('/v1/projects', { token, body: { name: 'Invites' } });
    const invite = (by: string, email: string, role: string, ttlHours?: number) =>
      api.post(`/v1/projects/${project.body.id}/invitations`, { token: by, body: { email, role, ttlHours } });

    const short = await invite(token, 'late@example.test', 'VIEWER', 1);
    clock.advance(3_600_000 + 1000);
    const expired = await api.post('/v1/auth/register', {
      body: { email: 'late@example.test', password: PASSWORD, invitation: short.body.token },
    });
    expectError(expired, 400, 'SERVICE_VALIDATION_FAILED');
    expect(expired.body.message).toContain('expired');

    const adminInvite = await invite(token, 'admin@example.test', 'ADMIN');
    const admin = await api.post('/v1/auth/register', {
      body: { email: 'admin@example.test', password: PASSWORD, invitation: adminInvite.body.token },
    });
    expectError(await invite(admin.body.token, 'boss@example.test', 'OWNER'), 403, 'SERVICE_PERMISSION_DENIED');
    expect((await invite(admin.body.token, 'dev@example.test', 'DEVELOPER')).status).toBe(201);
    const viewerInvite = await invite(token, 'viewer@example.test', 'VIEWER');
    const viewer = await api.post('/v1/auth/register', {
      body: { email: 'viewer@example.test', password: PASSWORD, invitation: viewerInvite.body.token },
    });
    expectError(await invite(viewer.body.token, 'x@example.test', 'VIEWER'), 403, 'SERVICE_PERMISSION_DENIED');
  });
});

describe('per-key rate limit', () => {
  const clock = manualClock();
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startTestServer({
      mode: 'production',
      clock,
      security: { keyRateLimit: { requests: 3, windowMs: 60_000 } },
    });
    api = client(server.url);
  });
  afterAll(() => server.dispose());

  it('answers RateLimit-* headers, then 429 with Retry-After past the limit, per key', async () => {
    const { keys } = await projectWithKeys(api);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.get('/v1/rooms', { token: keys.development });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      expect(res.headers.get('ratelimit-policy')).toBe('3;w=60');
      remaining.push(res.headers.get('ratelimit-remaining') ?? '');
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await api.get('/v1/rooms', { token: keys.development });
    const seconds = expectRateLimited(refused);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    // Another key has its own window.
    expect((await api.get('/v1/rooms', { token: keys.staging })).status).toBe(200);
    clock.advance(seconds * 1000);
    expect((await api.get('/v1/rooms', { token: keys.development })).status).toBe(200);
  });
});

describe('socket message limits', () => {
  const clock = manualClock();
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startTestServer({
      mode: 'production',
      clock,
      security: {
        registration: 'open',
        socketMessageRate: { realtime: { perSecond: 2, burst: 5 }, signaling: { perSecond: 2, burst: 5 } },
      },
    });
    api = client(server.url);
  });
  afterAll(() => server.dispose());

  it('closes a realtime socket that sends faster than its rate with 4429, refilling with time', async () => {
    const { keys } = await projectWithKeys(api);
    const steady = connectRealtime(server.url, await mintChatToken(api, keys.development, 'steady'));
    await steady.next('connected');
    for (let i = 0; i < 5; i++) steady.send({ type: 'ping' });
    for (let i = 0; i < 5; i++) await steady.next('pong');
    clock.advance(1000);
    for (let i = 0; i < 2; i++) steady.send({ type: 'ping' });
    for (let i = 0; i < 2; i++) await steady.next('pong');

    const flood = connectRealtime(server.url, await mintChatToken(api, keys.development, 'flood'));
    await flood.next('connected');
    for (let i = 0; i < 6; i++) flood.send({ type: 'ping' });
    const closed = await flood.closed;
    expect(closed.code).toBe(4429);
    expect(closed.reason).toContain('too many messages');
    expect(steady.socket.readyState).toBe(steady.socket.OPEN);
    steady.close();
  });

  it('closes a socket whose message is larger than the limit with 1009', async () => {
    const { keys } = await projectWithKeys(api);
    const big = connectRealtime(server.url, await mintChatToken(api, keys.development, 'big'));
    await big.next('connected');
    big.socket.send(JSON.stringify({ type: 'ping', padding: 'x'.repeat(20 * 1024) }));
    expect((await big.closed).code).toBe(1009);
  });
});
