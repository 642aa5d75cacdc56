import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Client } from './http.js';

export const PASSWORD = 'correct horse battery';

export interface TestUser {
  id: string;
  email: string;
  token: string;
}

export async function registerUser(api: Client, email = `user-${randomUUID()}@example.test`): Promise<TestUser> {
  const res = await api.post('/v1/auth/register', { body: { email, password: PASSWORD } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.user.id, email: res.body.user.email, token: res.body.token };
}

export async function createProject(
  api: Client,
  owner: TestUser,
  name = 'Test project',
): Promise<{ id: string; name: string }> {
  const res = await api.post('/v1/projects', { token: owner.token, body: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function addMember(api: Client, projectId: string, by: TestUser, user: TestUser, role: string) {
  const res = await api.post(`/v1/projects/${projectId}/members`, {
    token: by.token,
    body: { email: user.email, role },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function createKey(
  api: Client,
  projectId: string,
  by: TestUser,
  environment?: string,
  name = 'test key',
): Promise<{ id: string; key: string; environment: string }> {
  const res = await api.post(`/v1/projects/${projectId}/api-keys`, {
    token: by.token,
    body: environment === undefined ? { name } : { name, environment },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Asserts the error body shape of every error: `{code, message, requestId}` and the X-Request-Id header. */
export function expectError(res: { status: number; body: any; headers: Headers }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.code).toBe(code);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
  expect(res.body.requestId).toMatch(/^req_[0-9A-Z]{26}$/);
  expect(res.headers.get('x-request-id')).toBe(res.body.requestId);
}

/** An owner, a project and one API key per environment: the setting of every isolation test. */
export async function projectWithKeys(api: Client) {
  const owner = await registerUser(api);
  const project = await createProject(api, owner);
  const keys = {
    development: (await createKey(api, project.id, owner, 'development')).key,
    staging: (await createKey(api, project.id, owner, 'staging')).key,
    production: (await createKey(api, project.id, owner, 'production')).key,
  };
  return { owner, project, keys };
}

export async function createRoom(api: Client, key: string, name = `room-${randomUUID()}`) {
  const res = await api.post('/v1/rooms', { token: key, body: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; name: string; environment: string };
}

/** A chat token for the end user, minted with the key. */
export async function mintChatToken(api: Client, key: string, userId: string): Promise<string> {
  const res = await api.post('/v1/chat/tokens', { token: key, body: { userId } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.token as string;
}

export async function mintRtcToken(api: Client, key: string, roomId: string, body: Record<string, unknown> = {}) {
  const res = await api.post(`/v1/rooms/${roomId}/rtc-tokens`, { token: key, body: { identity: 'alice', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { token: string; expiresAt: string; permissions: Record<string, boolean> };
}

/** The claims of a JWT, without verifying it (the server's tests check what it signed). */
export function jwtClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

/** A conversation made with an API key or a chat token (whose user becomes its ADMIN), with these members. */
export async function createConversation(
  api: Client,
  credential: string,
  { name = `conversation-${randomUUID()}`, members = [] as string[] } = {},
) {
  const res = await api.post('/v1/chat/conversations', {
    token: credential,
    body: { name, members: members.map((userId) => ({ userId })) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; name: string; environment: string; memberCount: number };
}

/** A message sent with a chat token, or with an API key for `senderId`. */
export async function sendMessage(
  api: Client,
  credential: string,
  conversationId: string,
  body: { text: string; senderId?: string; parentId?: string; attachmentIds?: string[] },
) {
  const res = await api.post(`/v1/chat/conversations/${conversationId}/messages`, { token: credential, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; text: string; cursor: string; createdAt: string };
}

/** A live stream of the key's environment, with its room and conversation. */
export async function createLiveStream(api: Client, key: string, title = 'Launch party') {
  const res = await api.post('/v1/live-streams', { token: key, body: { title } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; roomId: string; conversationId: string; status: string };
}

/** A webhook endpoint registered by a member; answers it with its signing secret (shown once). */
export async function registerWebhook(
  api: Client,
  projectId: string,
  by: TestUser,
  body: { url: string; environment?: string; events?: string[] },
) {
  const res = await api.post(`/v1/projects/${projectId}/webhooks`, {
    token: by.token,
    body: { environment: 'development', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; url: string; secret: string; environment: string };
}
