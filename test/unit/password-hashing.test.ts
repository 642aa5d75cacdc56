import { rmSync } from 'node:fs';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../server/auth/passwords.js';
import { startServer } from '../../server/index.js';
import { makeDataDir } from '../support/server.js';

describe('password hashing', () => {
  it('stores the cost with each hash, so that standard and fast hashes both verify', async () => {
    const standard = await hashPassword('a long password', 'standard');
    const fast = await hashPassword('a long password', 'fast');
    expect(standard).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(fast).toMatch(/^scrypt\$1024\$8\$1\$/);
    for (const hash of [standard, fast]) {
      expect(await verifyPassword('a long password', hash)).toBe(true);
      expect(await verifyPassword('another password', hash)).toBe(false);
    }
  });

  it('is never fast on a production-mode server', async () => {
    const dataDir = makeDataDir();
    const start = startServer({
      dataDir,
      port: 0,
      mode: 'production',
      passwordHashing: 'fast',
      logger: pino({ level: 'silent' }),
    });
    await expect(start).rejects.toThrow('A production-mode server hashes passwords at the standard cost');
    rmSync(dataDir, { recursive: true, force: true });
  });
});
