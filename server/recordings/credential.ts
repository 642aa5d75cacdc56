import type { EnvironmentScope } from '../../db/scope.js';

/**
 * Which credential a recorded request or socket used, without its secret: enough for a replay to mint its own with
 * the same claims and pick it for the same calls (the credential itself is `[redacted]` in the file).
 */
export type RecordedCredential =
  | { kind: 'key'; keyId: string }
  | { kind: 'chat'; userId: string; scope?: string }
  | { kind: 'rtc'; roomId: string; identity: string };

/** A runtime request's authentication, as register-routes has it. */
type RuntimeAuth =
  | { kind: 'key'; keyId: string; scope: EnvironmentScope }
  | { kind: 'chat'; userId: string; chatScope: string; scope: EnvironmentScope }
  | { kind: 'rtc'; roomId: string; identity: string; scope: EnvironmentScope };

export function credentialOf(auth: { kind: string }): RecordedCredential | undefined {
  const known = auth as RuntimeAuth;
  if (known.kind === 'key') return { kind: 'key', keyId: known.keyId };
  if (known.kind === 'chat') return { kind: 'chat', userId: known.userId, scope: known.chatScope };
  if (known.kind === 'rtc') return { kind: 'rtc', roomId: known.roomId, identity: known.identity };
  return undefined;
}
