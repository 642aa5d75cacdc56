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
