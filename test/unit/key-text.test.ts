import { describe, expect, it } from 'vitest';
import { generateKeyText, hashSecret, parseKeyText } from '../../server/keys/key-text.js';

describe('API key text', () => {
  it('round-trips, hashing the secret half', () => {
    const key = generateKeyText('production');
    expect(key.text).toMatch(/^sb_prod_[A-Za-z0-9]{20}\.[A-Za-z0-9]{40}$/);
    const parsed = parseKeyText(key.text);
    expect(parsed?.publicId).toBe(key.publicId);
    expect(hashSecret(parsed?.secret ?? '').toString('hex')).toBe(key.secretHash);
    expect(key.text).not.toContain(key.secretHash);
  });

  it('ignores the environment segment, and accepts keys without one', () => {
    const key = generateKeyText('staging');
    const [, rest] = key.text.split('_stg_');
    expect(parseKeyText(`sb_prod_${rest}`)?.publicId).toBe(key.publicId);
    expect(parseKeyText(`sb_${rest}`)?.publicId).toBe(key.publicId);
  });

  it('rejects other shapes', () => {
    for (const text of [
      '',
      'sb_dev_',
      'sb_dev_abc',
      'sb_dev_abcdefgh.short',
      'eyJhbGciOiJIUzI1NiJ9.e30.sig',
      'sb_dev_abc-defgh.0123456789abcdef',
    ]) {
      expect(parseKeyText(text), text).toBeNull();
    }
  });
});
