import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../sdk/node.js';

const secret = 'whsec_test0123456789abcdefghijklmnopqrstuv';
const body = '{"id":"evt_1","type":"room.created","data":{}}';
const now = Date.parse('2026-01-01T00:00:00.000Z');
const t = now / 1000;
const sign = (timestamp: number, raw: string | Buffer = body, key = secret) =>
  createHmac('sha256', key).update(`${timestamp}.`).update(raw).digest('hex');
const header = (timestamp = t, signature = sign(timestamp)) => `t=${timestamp},v1=${signature}`;

describe('verifyWebhook', () => {
  it('accepts a signature of the raw body, as a string or as bytes', () => {
    expect(verifyWebhook(secret, header(), body, { now })).toBe(true);
    expect(verifyWebhook(secret, header(), Buffer.from(body), { now })).toBe(true);
    expect(verifyWebhook(secret, header(), new Uint8Array(Buffer.from(body)), { now })).toBe(true);
  });

  it('rejects another body, another secret, or a re-serialised body', () => {
    expect(verifyWebhook(secret, header(), `${body} `, { now })).toBe(false);
    expect(verifyWebhook(`${secret}x`, header(), body, { now })).toBe(false);
    expect(verifyWebhook(secret, header(), JSON.stringify(JSON.parse(body), null, 2), { now })).toBe(false);
  });

  it('rejects timestamps beyond the tolerance (300 s by default), either way', () => {
    expect(verifyWebhook(secret, header(t - 300), body, { now })).toBe(true);
    expect(verifyWebhook(secret, header(t + 300), body, { now })).toBe(true);
    expect(verifyWebhook(secret, header(t - 301), body, { now })).toBe(false);
    expect(verifyWebhook(secret, header(t + 301), body, { now })).toBe(false);
    expect(verifyWebhook(secret, header(t - 1000), body, { now, toleranceSeconds: 1000 })).toBe(true);
  });

  it('accepts any one of several v1 signatures (secret rotation)', () => {
    const rotated = `t=${t},v1=${sign(t, body, 'whsec_old')},v1=${sign(t)}`;
    expect(verifyWebhook(secret, rotated, body, { now })).toBe(true);
  });

  it.each([
    undefined,
    null,
    '',
    'garbage',
    `v1=${sign(t)}`,
    `t=${t}`,
    `t=${t},v1=`,
    `t=${t},v1=${sign(t).slice(0, 63)}`,
    `t=${t},v1=${sign(t)}00`,
    `t=${t},v1=${sign(t).toUpperCase()}`,
    `t=${t},v0=${sign(t)}`,
    `t=abc,v1=${sign(t)}`,
    `t=${t}.5,v1=${sign(t)}`,
  ])('rejects the malformed header %j', (value) => {
    expect(verifyWebhook(secret, value, body, { now })).toBe(false);
  });

  it('rejects an empty secret', () => {
    expect(verifyWebhook('', header(t, sign(t, body, '')), body, { now })).toBe(false);
  });
});
