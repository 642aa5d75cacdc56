import type { RecordedCredential } from '../../server/recordings/credential.js';
import { REDACTED } from '../../server/recordings/redact.js';
import type { IdMap } from './ids.js';

interface MintedToken {
  token: string;
  kind: 'chat' | 'rtc';
  claims: Record<string, unknown>;
}

/** A JWT's claims, unverified (the replay only reads which kind it is and for whom), or undefined. */
function claimsOf(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' ? claims : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The chat and RTC tokens the replay minted: a recorded token is a placeholder, so each call or socket gets the
 * newest token minted in the replay with the recorded credential's claims (user and scope; room and identity).
 */
export class MintedTokens {
  private readonly tokens: MintedToken[] = [];

  /** Keeps the tokens an answer holds (`token` members, at the top or one level down). */
  collect(body: unknown): void {
    if (body === null || typeof body !== 'object') return;
    const candidates = [body, ...Object.values(body)].filter((v) => v !== null && typeof v === 'object');
    for (const candidate of candidates) {
      const token = (candidate as { token?: unknown }).token;
      if (typeof token !== 'string' || token === REDACTED) continue;
      const claims = claimsOf(token);
      if (!claims) continue;
      if (typeof claims.room === 'string') this.tokens.push({ token, kind: 'rtc', claims });
      else if (typeof claims.senderId === 'string') this.tokens.push({ token, kind: 'chat', claims });
    }
  }

  /** The token for a recorded credential (`key`: the replay's API key), or undefined when none was minted. */
  for(credential: RecordedCredential | undefined, fallback: 'chat' | 'rtc' | 'key', ids: IdMap): string | undefined {
    const kind = credential?.kind ?? fallback;
    if (kind === 'key') return undefined;
    for (let i = this.tokens.length - 1; i >= 0; i--) {
      const minted = this.tokens[i] as MintedToken;
      if (minted.kind !== kind) continue;
      if (credential?.kind === 'chat') {
        if (minted.claims.senderId !== credential.userId) continue;
        if (credential.scope && minted.claims.scope !== credential.scope) continue;
      }
      if (credential?.kind === 'rtc') {
        if (minted.claims.room !== ids.get(credential.roomId) || minted.claims.identity !== credential.identity)
          continue;
      }
      return minted.token;
    }
    return undefined;
  }
}
