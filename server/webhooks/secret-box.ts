import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Holds the AES-256 key that encrypts webhook signing secrets; created 0600 on first use. */
export const SECRET_KEY_FILE = 'webhook-secrets.key';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const FORMAT = 'v1';

export interface SecretBox {
  /** `context` (the endpoint id) is bound to the ciphertext: a secret copied to another row fails to open. */
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

/**
 * AES-256-GCM for the signing secrets the server must keep (it signs with them, so a hash will not
 * do). The key lives in a file beside the database rather than in it, so a copy of the database
 * alone does not reveal the secrets. Losing the file makes the stored secrets unreadable.
 */
export function createSecretBox(dataDir: string): SecretBox {
  const path = join(dataDir, SECRET_KEY_FILE);
  let key: Buffer | undefined;
  return secretBoxWith(() => {
    key ??= readOrCreateKey(path);
    return key;
  });
}

/** The same box with a key given (a server on PostgreSQL derives it from its secret key: server/secret-key.ts). */
export function secretBoxWithKey(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new Error(`A webhook-secrets key has ${KEY_BYTES} bytes`);
  return secretBoxWith(() => key);
}

function secretBoxWith(loadKey: () => Buffer): SecretBox {
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', loadKey(), iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
      return [FORMAT, ...parts].join('.');
    },
    open(sealed, context) {
      const [format, iv, tag, ciphertext] = sealed.split('.');
      if (format !== FORMAT || ciphertext === undefined) throw new Error('Unknown sealed secret format');
      const decipher = createDecipheriv('aes-256-gcm', loadKey(), Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

function readOrCreateKey(path: string): Buffer {
  try {
    // `wx`: only if absent, so two starts cannot each write a different key.
    writeFileSync(path, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = readFileSync(path);
  if (key.length !== KEY_BYTES) throw new Error(`${path} must hold exactly ${KEY_BYTES} bytes`);
  return key;
}
