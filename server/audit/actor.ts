import type { KeyAuth, SessionAuth } from '../http/route.js';

export type UserActor = { type: 'user'; id: string; email: string };
/** The server itself, for changes no one asked for at that moment (e.g. a webhook endpoint disabled after failures). */
export type SystemActor = { type: 'system'; id: null };
/** Who made a change, as the audit log records it. */
export type Actor = UserActor | { type: 'api_key'; id: string } | SystemActor;

export const SYSTEM_ACTOR: SystemActor = { type: 'system', id: null };

export const userActor = (auth: SessionAuth): UserActor => ({ type: 'user', id: auth.user.id, email: auth.user.email });

export function actorOf(auth: SessionAuth | KeyAuth): Actor {
  return auth.kind === 'session' ? userActor(auth) : { type: 'api_key', id: auth.keyId };
}
