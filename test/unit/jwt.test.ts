import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createJwtCodec } from '../../server/auth/jwt.js';

const secret = new TextEncoder().encode('a test secret of thirty-two bytes');
const start = Date.parse('2026-01-01T00:00:00.000Z');
const seconds = start / 1000;
const clockAt = (ms: number) => ({ now: () => ms });
const codec = (at = start, audience = 'chat', key: Uint8Array = secret) => createJwtCodec(key, clockAt(at), audience);

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A token made by hand, to give the verifier what Switchboard never signs. */
function handMade(
  claims: Record<string, unknown>,
  header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' },
  hash = 'sha256',
): string {
  const signed = `${base64url(header)}.${base64url(claims)}`;
  return `${signed}.${createHmac(hash, secret).update(signed).digest('base64url')}`;
}
const validClaims = { iss: 'switchboard', aud: 'chat', sub: 'user_1', iat: seconds, exp: seconds + 60 };

describe('JWT codec', () => {
  it('verifies what it signed, with its claims', async () => {
    const token = await codec().sign({ role: 'member' }, 'user_1', start + 60_000, 'tok_1');
    const verified = await codec().verify(token);
    expect(verified).toEqual({
      ok: true,
      payload: {
        role: 'member',
        iss: 'switchboard',
        aud: 'chat',
        sub: 'user_1',
        iat: seconds,
        exp: seconds + 60,
        jti: 'tok_1',
      },
    });
    expect(await codec().verify(handMade(validClaims))).toMatchObject({ ok: true });
  });

  it('calls a token expired from its exp on, by the clock or by the time the caller gives', async () => {
    const token = await codec().sign({}, 'user_1', start + 60_000);
    expect(await codec(start + 59_999).verify(token)).toMatchObject({ ok: true });
    expect(await codec(start + 60_000).verify(token)).toEqual({ ok: false, reason: 'expired' });
    expect(await codec().verify(token, async () => start + 61_000)).toEqual({ ok: false, reason: 'expired' });
    expect(await codec(start + 61_000).verify(token, async () => start)).toMatchObject({ ok: true });
  });

  it('refuses another key, another audience or issuer, and a changed payload', async () => {
    const token = await codec().sign({ role: 'member' }, 'user_1', start + 60_000);
    const invalid = { ok: false, reason: 'invalid' };
    expect(await codec(start, 'chat', new TextEncoder().encode('another secret')).verify(token)).toEqual(invalid);
    expect(await codec(start, 'rtc').verify(token)).toEqual(invalid);
    expect(await codec().verify(handMade({ ...validClaims, iss: 'someone' }))).toEqual(invalid);
    expect(await codec().verify(handMade({ ...validClaims, aud: ['rtc', 'chat'] }))).toMatchObject({ ok: true });
    const [header, , signature] = token.split('.');
    const changed = `${header}.${base64url({ ...validClaims, role: 'admin' })}.${signature}`;
    expect(await codec().verify(changed)).toEqual(invalid);
  });

  it('refuses another algorithm and an unsigned token', async () => {
    const invalid = { ok: false, reason: 'invalid' };
    expect(await codec().verify(handMade(validClaims, { alg: 'HS512' }, 'sha512'))).toEqual(invalid);
    // Signed as HS256 would be, but saying otherwise: the header is part of what is checked.
    expect(await codec().verify(handMade(validClaims, { alg: 'HS512' }))).toEqual(invalid);
    expect(await codec().verify(handMade(validClaims, { alg: 'none' }))).toEqual(invalid);
    const unsigned = `${base64url({ alg: 'none' })}.${base64url(validClaims)}.`;
    expect(await codec().verify(unsigned)).toEqual(invalid);
  });

  it('refuses claims of the wrong type and a token not yet valid', async () => {
    const invalid = { ok: false, reason: 'invalid' };
    expect(await codec().verify(handMade({ ...validClaims, exp: String(seconds + 60) }))).toEqual(invalid);
    expect(await codec().verify(handMade({ ...validClaims, iat: 'yesterday' }))).toEqual(invalid);
    expect(await codec().verify(handMade({ ...validClaims, nbf: seconds + 1 }))).toEqual(invalid);
    expect(await codec().verify(handMade({ ...validClaims, nbf: seconds }))).toMatchObject({ ok: true });
  });

  it('answers invalid, never throws, for what is not a token', async () => {
    for (const text of ['', 'abc', 'a.b.c', 'a.b', '...', `${base64url({ alg: 'HS256' })}.bm90IGpzb24.x`]) {
      expect(await codec().verify(text)).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});
