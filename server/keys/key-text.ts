import { hash } from 'node:crypto';
import type { Environment } from '../../db/schema/environment.js';
import { ENVIRONMENT_SEGMENTS } from '../environments.js';
import { randomString } from '../ids.js';

export const KEY_PREFIX = 'sb';
const PUBLIC_LENGTH = 20; // ~119 bits: unique lookup handle
const SECRET_LENGTH = 40; // ~238 bits: never stored

/**
 * `<prefix>_<env segment>_<public>.<secret>`. The segment is for people only: parsing ignores it
 * (any word, or none at all, as older keys had), and authentication uses the stored environment.
 */
const KEY_TEXT = /^[a-z]+_(?:[a-z]+_)?([A-Za-z0-9]{8,64})\.([A-Za-z0-9]{16,128})$/;

export interface NewKeyText {
  text: string;
  publicId: string;
  secretHash: string;
}

export function generateKeyText(environment: Environment): NewKeyText {
  const publicId = randomString(PUBLIC_LENGTH);
  const secret = randomString(SECRET_LENGTH);
  return {
    text: `${KEY_PREFIX}_${ENVIRONMENT_SEGMENTS[environment]}_${publicId}.${secret}`,
    publicId,
    secretHash: hashSecret(secret).toString('hex'),
  };
}

/** A key whose text was chosen elsewhere (a seed file), as `generateKeyText` would have made it; null if malformed. */
export function givenKeyText(text: string): NewKeyText | null {
  const parsed = parseKeyText(text);
  return parsed && { text, publicId: parsed.publicId, secretHash: hashSecret(parsed.secret).toString('hex') };
}

export function parseKeyText(text: string): { publicId: string; secret: string } | null {
  const match = KEY_TEXT.exec(text);
  return match ? { publicId: match[1], secret: match[2] } : null;
}

/**
 * SHA-256 suffices for a random 238-bit secret (nothing to brute-force), and keeps key
 * authentication cheap on every runtime request; passwords get scrypt instead.
 */
export function hashSecret(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

export const looksLikeApiKey = (credential: string) => credential.startsWith(`${KEY_PREFIX}_`);
