import { describe, expect, it } from 'vitest';
import { resolveServeSettings, UsageError } from '../../cli/config.js';
import { parseOrigin, resolveSecurity } from '../../server/security/settings.js';
import { createSlidingWindow } from '../../server/security/sliding-window.js';
import { manualClock } from '../support/server.js';

describe('security settings', () => {
  it('takes the defaults of the deployment mode', () => {
    expect(resolveSecurity('local')).toMatchObject({
      registration: 'open',
      keyRateLimit: null,
      socketMessageRate: null,
    });
    expect(resolveSecurity('production')).toMatchObject({
      registration: 'first-only',
      keyRateLimit: { requests: 6000, windowMs: 60_000 },
      socketMessageRate: { realtime: { perSecond: 20 }, signaling: { perSecond: 100 } },
    });
    expect(resolveSecurity('production', { registration: 'open', keyRateLimit: null }).keyRateLimit).toBeNull();
  });

  it('reads flags and variables, a flag winning over its variable', () => {
    const env = {
      SWITCHBOARD_ALLOWED_ORIGINS: 'https://a.example, http://localhost:3000',
      SWITCHBOARD_REGISTRATION: 'first-only',
      SWITCHBOARD_KEY_RATE_LIMIT: '120',
      SWITCHBOARD_TRUST_PROXY: '1',
      SWITCHBOARD_MAX_CONNECTIONS: '500',
    };
    expect(resolveServeSettings({}, env).security).toEqual({
      allowedOrigins: ['https://a.example', 'http://localhost:3000'],
      registration: 'first-only',
      keyRateLimit: { requests: 120, windowMs: 60_000 },
      trustProxy: 1,
      http: { maxConnections: 500 },
    });
    expect(
      resolveServeSettings({ allowedOrigins: '*', registration: 'OPEN', keyRateLimit: '0' }, env).security,
    ).toMatchObject({
      allowedOrigins: ['*'],
      registration: 'open',
      keyRateLimit: null,
    });
    expect(resolveServeSettings({}, {}).security).toEqual({});
  });

  it.each([
    { allowedOrigins: 'app.example.com' },
    { allowedOrigins: 'https://app.example.com/path' },
    { allowedOrigins: 'ftp://app.example.com' },
    { registration: 'closed' },
    { keyRateLimit: 'lots' },
    { maxConnections: '-5' },
  ])('refuses %j with a usage error', (flags) => {
    expect(() => resolveServeSettings(flags, {})).toThrow(UsageError);
  });

  it('normalizes an origin', () => {
    expect(parseOrigin('https://App.Example.com/')).toBe('https://app.example.com');
    expect(parseOrigin('http://localhost:3000')).toBe('http://localhost:3000');
  });
});

describe('sliding window', () => {
  it('allows the limit in a window, then answers how long to wait, and slides', () => {
    const clock = manualClock(Date.parse('2026-01-01T00:00:00.000Z'));
    const window = createSlidingWindow(clock, 3, 60_000);
    expect([1, 2, 3].map(() => window.take('k').allowed)).toEqual([true, true, true]);
    const refused = window.take('k');
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    // Three in this window: the estimate (3 × the previous window's weight) falls below 3 as the next one starts.
    expect(refused.retryAfterMs).toBe(60_001);
    expect(window.take('other').allowed).toBe(true);
    clock.advance(60_000 - 10);
    expect(window.take('k').allowed).toBe(false);
    clock.advance(11);
    expect(window.take('k').allowed).toBe(true);
    // Four now count in all (three from the last window, nearly whole): one more must wait a third of this one.
    expect(window.take('k').allowed).toBe(false);
    clock.advance(120_000);
    expect(window.take('k')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('counts failures without taking, and forgets a key on reset', () => {
    const clock = manualClock();
    const window = createSlidingWindow(clock, 2, 1_000);
    window.count('k');
    expect(window.peek('k').allowed).toBe(true);
    window.count('k');
    expect(window.peek('k').allowed).toBe(false);
    window.reset('k');
    expect(window.peek('k').allowed).toBe(true);
  });
});
