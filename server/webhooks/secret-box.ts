import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyIdOf } from '../secret-key.js';

/** Holds the AES-256 key that encrypts webhook signing secrets on SQLite; created 0600 on first start. */
export const SECRET_KEY_FILE = 'webhook-secrets.key';
/**
 * The key that `webhook-secrets.key` replaced (`switchboard secret-key rotate --data-dir`), kept while secrets sealed
 * with it remain: the server opens them with it, seals them again with the new key, then says it may go.
 */
export const PREVIOUS_SECRET_KEY_FILE = 'webhook-secrets.previous.key';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const FORMAT = 'v1';

/** A key of the box and its id (server/secret-key.ts: a fingerprint, never the key). */
export interface BoxKey {
  id: string;
  key: Buffer;
}

export interface SecretBox {
  /**
   * Seals with the key the database uses now (during a rotation, the new one once every node holds it), and says
   * which. `context` (the endpoint id) is bound to the ciphertext: a secret copied to another row fails to open.
   */
  seal(plaintext: string, context: string): { sealed: string; keyId: string };
  /** Opens with whichever of its keys sealed it (the one sealing first). */
  open(sealed: string, context: string): string;
}

/**
 * AES-256-GCM for the signing secrets the server must keep (it signs with them, so a hash will not do). The key lives
 * in a file beside the database rather than in it, or derives from the secret key, so a copy of the database alone
 * does not reveal the secrets. Losing the key makes the stored secrets unreadable.
 */
export function createSecretBox(keys: BoxKey[], sealingKeyId: () => string): SecretBox {
  for (const { key } of keys)
    if (key.length !== KEY_BYTES) throw new Error(`A webhook-secrets key has ${KEY_BYTES} bytes`);
  const sealingKey = () => {
    const id = sealingKeyId();
    const found = keys.find((k) => k.id === id);
    if (!found) throw new Error(`No webhook-secrets key with id ${id}`);
    return found;
  };
  return {
    seal(plaintext, context) {
      const { id, key } = sealingKey();
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
      return { sealed: [FORMAT, ...parts].join('.'), keyId: id };
    },
    open(sealed, context) {
      const first = sealingKey();
      let failure: unknown;
      // GCM's tag tells a wrong key at once: trying the other key costs one more AES block or so.
      for (const { key } of [first, ...keys.filter((k) => k !== first)]) {
        try {
          return openWith(key, sealed, context);
        } catch (err) {
          failure ??= err;
        }
      }
      throw failure;
    },
  };
}

/** A box of one key that seals with it: an archive's (data-archive/), or a test's. */
export function secretBoxWithKey(key: Buffer): SecretBox {
  const id = keyIdOf(key);
  return createSecretBox([{ id, key }], () => id);
}

function openWith(key: Buffer, sealed: string, context: string): string {
  const [format, iv, tag, ciphertext] = sealed.split('.');
  if (format !== FORMAT || ciphertext === undefined) throw new Error('Unknown sealed secret format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/** The data folder's key, made (0600) if absent; `wx`, so two starts cannot each write a different key. */
export function readOrCreateKeyFile(dataDir: string): Buffer {
  const path = join(dataDir, SECRET_KEY_FILE);
  try {
    writeFileSync(path, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readKeyFile(path);
}

/** The data folder's previous key, if a rotation left one. */
export function readPreviousKeyFile(dataDir: string): Buffer | undefined {
  try {
    return readKeyFile(join(dataDir, PREVIOUS_SECRET_KEY_FILE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** A new random key, for a key file. */
export const newKeyFileBytes = (): Buffer => randomBytes(KEY_BYTES);

function readKeyFile(path: string): Buffer {
  const key = readFileSync(path);
  if (key.length !== KEY_BYTES) throw new Error(`${path} must hold exactly ${KEY_BYTES} bytes`);
  return key;
}

/** The keys of a data folder (an archive's too): its key file, made if absent, and a previous one if it has one. */
export function dataFolderKeys(dir: string): BoxKey[] {
  return [readOrCreateKeyFile(dir), readPreviousKeyFile(dir)]
    .filter((key) => key !== undefined)
    .map((key) => ({ id: keyIdOf(key), key }));
}

/** A box of a data folder's keys (an archive's): seals with its key file's key, opens with either. */
export function dataFolderSecretBox(dir: string): SecretBox {
  const keys = dataFolderKeys(dir);
  return createSecretBox(keys, () => keys[0].id);
}
