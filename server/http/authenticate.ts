import type { Request } from 'express';
import * as z from 'zod';
import { onFirstUse } from '../../db/prepare-on-first-use.js';
import type { AppContext } from '../context.js';
import { environmentQuery } from '../environments.js';
import { permissionDenied, projectNotFound, ServiceError, unauthenticated, validationFailed } from '../errors.js';
import { looksLikeApiKey } from '../keys/key-text.js';
import { hasCapability } from '../roles/capabilities.js';
import {
  type AdminAuth,
  type AnyRoute,
  acceptsApiKey,
  type ChatAuth,
  isProjectRoute,
  type KeyAuth,
  type ProjectAuth,
  type ProjectEnvironmentAuth,
  type RtcAuth,
  type SessionAuth,
} from './route.js';
import { parseOrThrow } from './validate.js';

function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthenticated('The Authorization header must be "Bearer <credential>".');
  return match[1];
}

const CREDENTIAL_NAMES = {
  session: 'a dashboard session token',
  project: 'a dashboard session token',
  'project-environment': 'a dashboard session token',
  key: 'a project API key',
  'session-or-key': 'a dashboard session token or a project API key',
  rtc: 'an RTC token',
  'key-or-chat': 'a project API key or a chat token',
  admin: "the server's admin token (the admin-token file of its data folder)",
  'admin-or-owner': "the server's admin token or the session token of a project's owner",
} as const;

/**
 * Resolves the route's credential into its auth value, or throws 401. On `project` routes it then
 * applies the access rules of spec 5.5: a non-member gets the same 404 as a missing project, and a
 * member whose role lacks the route's capability gets 403 naming both.
 */
export async function authenticate(
  app: AppContext,
  route: AnyRoute,
  req: Request,
): Promise<SessionAuth | ProjectAuth | ProjectEnvironmentAuth | KeyAuth | RtcAuth | ChatAuth | AdminAuth | null> {
  if (route.auth === 'none') return null;
  const credential = bearerToken(req);
  const expected = CREDENTIAL_NAMES[route.auth];
  if (!credential) throw unauthenticated(`This route needs ${expected} in the Authorization header.`);

  if (route.auth === 'admin') {
    if (!app.services.backups.isAdminToken(credential)) throw unauthenticated(`This route needs ${expected}.`);
    return { kind: 'admin' };
  }

  if (route.auth === 'admin-or-owner') {
    if (app.services.backups.isAdminToken(credential)) return { kind: 'admin' };
    const session = await app.services.auth.authenticate(credential);
    if (!session) throw unauthenticated(`This route needs ${expected}.`);
    const projects = await app.services.projects.listForUser(session.user.id);
    if (!projects.some((project) => project.role === 'OWNER'))
      throw new ServiceError('SERVICE_PERMISSION_DENIED', 'Only an owner of a project (or the admin token) sees this.');
    return { kind: 'admin', ownerId: session.user.id };
  }

  if (route.auth === 'rtc') {
    const verified = await app.services.rtcTokens.verify(credential);
    if (!verified.ok)
      throw unauthenticated(
        verified.reason === 'expired' ? 'The RTC token has expired.' : `This route needs ${expected}.`,
      );
    const { projectId, environment, roomId, identity } = verified.claims;
    return { kind: 'rtc', scope: { projectId, environment }, roomId, identity };
  }

  if (looksLikeApiKey(credential)) {
    if (!acceptsApiKey(route.auth))
      throw unauthenticated(`API keys are not accepted here: this route needs ${expected}.`);
    const auth = await app.services.keys.authenticate(credential);
    if (!auth) throw unauthenticated('Invalid or revoked API key.');
    return auth;
  }
  if (route.auth === 'key') throw unauthenticated(`This route needs ${expected}.`);
  if (route.auth === 'key-or-chat') {
    const claims = await app.services.chatTokens.verify(credential);
    if (!claims) throw unauthenticated(`Invalid or expired chat token: this route needs ${expected}.`);
    return {
      kind: 'chat',
      scope: { projectId: claims.projectId, environment: claims.environment },
      userId: claims.userId,
      chatScope: claims.scope,
    };
  }

  const session = await app.services.auth.authenticate(credential);
  if (!session) throw unauthenticated('Invalid, expired or signed-out session token.');
  if (!isProjectRoute(route.auth)) return session;

  const projectId = req.params.id;
  if (typeof projectId !== 'string') throw validationFailed('Missing project id.');
  const role = await app.services.projects.roleOf(projectId, session.user.id);
  if (!role) throw projectNotFound();
  if (route.capability && !hasCapability(role, route.capability)) throw permissionDenied(role, route.capability);
  const member = { projectId, role };
  if (route.auth === 'project') return { ...session, member };
  // The environment of a dashboard route is the query's, as a key's is its credential's.
  const { environment } = parseOrThrow(environmentOnly(), { environment: req.query.environment }, 'query');
  return { ...session, member, scope: { projectId, environment } };
}

const environmentOnly = onFirstUse(() => z.object(environmentQuery().shape));
