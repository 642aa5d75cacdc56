import type { Request } from 'express';
import { defineRoute } from '../http/route.js';
import { presentSession, presentUser } from './presenter.js';
import { loginBody, registerBody, sessionSchema, whoamiSchema } from './schemas.js';

const tag = 'Auth';

/** The client's address: the socket's, or the proxy's X-Forwarded-For when `--trust-proxy` says to trust it. */
const clientAddress = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

export const authRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/auth/register',
    operationId: 'register',
    summary: 'Create an account',
    description:
      'Creates a dashboard account and signs it in. Passwords need at least 8 characters. On a server whose ' +
      'registration policy is `first-only` (production default), only the first account needs no `invitation`; an ' +
      'invitation also makes the account a member of the project that issued it.',
    tag,
    auth: 'none',
    body: registerBody,
    status: 201,
    response: sessionSchema,
    errors: {
      SERVICE_REGISTRATION_CLOSED: 'Registration is by invitation on this server and none was given.',
      SERVICE_EMAIL_TAKEN: 'The address already has an account.',
      SERVICE_RATE_LIMITED: 'Too many registrations from this client lately (with `Retry-After`).',
    },
    handler: async ({ app, body, req }) => presentSession(await app.services.auth.register(body, clientAddress(req))),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/auth/login',
    operationId: 'login',
    summary: 'Sign in',
    description: 'Exchanges email and password for a session token (valid 30 days, or until logout).',
    tag,
    auth: 'none',
    body: loginBody,
    response: sessionSchema,
    errors: {
      SERVICE_UNAUTHENTICATED: 'Wrong email or password.',
      SERVICE_RATE_LIMITED:
        'Too many failed sign-ins for this address or from this client lately (with `Retry-After`).',
    },
    handler: async ({ app, body, req }) => presentSession(await app.services.auth.login(body, clientAddress(req))),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/auth/logout',
    operationId: 'logout',
    summary: 'Sign out',
    description: 'Revokes the session token of the request; it stops working at once.',
    tag,
    auth: 'session',
    status: 204,
    handler: async ({ app, auth }) => {
      await app.services.auth.logout(auth.sessionId);
      return undefined;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/whoami',
    operationId: 'whoami',
    summary: 'Describe the credential of the request',
    description:
      'With a session token: the signed-in user. With an API key: its id, project and environment (from the stored ' +
      'record, whatever the key text says). A cheap way for SDKs and the CLI to check a credential.',
    tag,
    auth: 'session-or-key',
    response: whoamiSchema,
    handler: ({ auth }) =>
      auth.kind === 'session'
        ? { type: 'session' as const, user: presentUser(auth.user) }
        : { type: 'api_key' as const, keyId: auth.keyId, ...auth.scope },
  }),
];
