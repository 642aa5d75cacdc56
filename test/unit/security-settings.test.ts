import { describe, expect, it } from 'vitest';
import { resolveServeSettings, UsageError } from '../../cli/config.js';
import { filesKeptFree, fitAllowances, openFilesWarning, readOpenFileLimit } from '../../server/security/open-files.js';
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
      SWITCHBOARD_MAX_WEBSOCKETS: '2000',
      SWITCHBOARD_MAX_WEBSOCKETS_PER_ENVIRONMENT: '300',
    };
    expect(resolveServeSettings({}, env).security).toEqual({
      allowedOrigins: ['https://a.example', 'http://localhost:3000'],
      registration: 'first-only',
      keyRateLimit: { requests: 120, windowMs: 60_000 },
      trustProxy: 1,
      http: { maxConnections: 500 },
      webSockets: { max: 2000, perEnvironment: 300 },
    });
    expect(
      resolveServeSettings({ maxConnections: '50', maxWebsockets: '40', maxWebsocketsPerEnvironment: '4' }, env)
        .security,
    ).toMatchObject({ http: { maxConnections: 50 }, webSockets: { max: 40, perEnvironment: 4 } });
    expect(resolveServeSettings({ maxWebsocketsPerEnvironment: '7' }, {}).security).toEqual({
      webSockets: { perEnvironment: 7 },
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
    { maxConnections: '0' },
    { maxWebsockets: '0' },
    { maxWebsockets: '1.5' },
    { maxWebsockets: 'many' },
    { maxWebsockets: '99999999999999999999' },
    { maxWebsocketsPerEnvironment: '' },
    { maxWebsocketsPerEnvironment: '-1' },
  ])('refuses %j with a usage error', (flags) => {
    expect(() => resolveServeSettings(flags, {})).toThrow(UsageError);
  });

  it('names the variable that holds a bad count', () => {
    expect(() => resolveServeSettings({}, { SWITCHBOARD_MAX_WEBSOCKETS_PER_ENVIRONMENT: '0' })).toThrow(
      'SWITCHBOARD_MAX_WEBSOCKETS_PER_ENVIRONMENT must be a whole number from 1, not "0"',
    );
  });

  it('refuses a count that is not a whole number from 1 given to startServer', () => {
    expect(() => resolveSecurity('local', { webSockets: { max: 0 } })).toThrow(RangeError);
    expect(() => resolveSecurity('local', { webSockets: { perEnvironment: 2.5 } })).toThrow(RangeError);
    expect(() => resolveSecurity('local', { http: { maxConnections: Number.NaN } })).toThrow(RangeError);
  });

  it('normalizes an origin', () => {
    expect(parseOrigin('https://App.Example.com/')).toBe('https://app.example.com');
    expect(parseOrigin('http://localhost:3000')).toBe('http://localhost:3000');
  });
});

describe('connection limits', () => {
  it('lets one environment take every WebSocket locally, half of them in production', () => {
    expect(resolveSecurity('local')).toMatchObject({
      http: { maxConnections: 10_000 },
      webSockets: { max: 10_000, perEnvironment: 10_000 },
    });
    expect(resolveSecurity('production').webSockets).toEqual({ max: 10_000, perEnvironment: 5_000 });
    expect(resolveSecurity('production', { webSockets: { max: 301 } }).webSockets).toEqual({
      max: 301,
      perEnvironment: 151,
    });
    // An environment's limit is never more than the server's.
    expect(resolveSecurity('local', { webSockets: { max: 50, perEnvironment: 80 } }).webSockets).toEqual({
      max: 50,
      perEnvironment: 50,
    });
  });

  it('fits the defaults under the open-file limit, with a tenth of it (at least 256) kept free', () => {
    expect(filesKeptFree(1024)).toBe(256);
    expect(filesKeptFree(20_000)).toBe(2_000);
    const defaults = { http: 10_000, webSockets: 10_000 };
    // A limit with room for both: the defaults stand, as they do where the limit is unknown.
    expect(fitAllowances(1_048_576, defaults, {})).toEqual(defaults);
    expect(fitAllowances(null, defaults, {})).toEqual(defaults);
    // This machine's 20,000: 18,000 to share, WebSockets first while HTTP keeps a quarter.
    expect(fitAllowances(20_000, defaults, {})).toEqual({ http: 8_000, webSockets: 10_000 });
    expect(fitAllowances(4_096, defaults, {})).toEqual({ http: 922, webSockets: 2_764 });
    expect(fitAllowances(1024, defaults, {})).toEqual({ http: 192, webSockets: 576 });
    // What is given stands; the default beside it takes what is left.
    expect(fitAllowances(20_000, defaults, { webSockets: 10_000 })).toEqual({ http: 8_000, webSockets: 10_000 });
    expect(fitAllowances(20_000, defaults, { http: 500 })).toEqual({ http: 500, webSockets: 10_000 });
    expect(fitAllowances(20_000, defaults, { webSockets: 19_000 })).toEqual({ http: 100, webSockets: 19_000 });
    expect(resolveSecurity('production', {}, 20_000)).toMatchObject({
      http: { maxConnections: 8_000 },
      webSockets: { max: 10_000, perEnvironment: 5_000 },
    });
  });

  it('warns when the allowances do not fit under the open-file limit, and only then', () => {
    expect(openFilesWarning(20_000, { http: 8_000, webSockets: 10_000 })).toBeUndefined();
    expect(openFilesWarning(null, { http: 1e9, webSockets: 1e9 })).toBeUndefined();
    const warning = openFilesWarning(20_000, { http: 10_000, webSockets: 10_000 });
    expect(warning).toContain(
      'This process may open 20000 files, but up to 10000 HTTP connections and 10000 WebSockets',
    );
    expect(warning).toContain('LimitNOFILE=');
    expect(warning).toContain('--max-websockets');
  });

  it('reads the soft open-file limit from /proc/self/limits, and nothing where there is none', () => {
    const limits = [
      'Limit                     Soft Limit           Hard Limit           Units     ',
      'Max processes             96365                96365                processes ',
      'Max open files            20000                524288               files     ',
    ].join('\n');
    expect(readOpenFileLimit(() => limits)).toBe(20_000);
    expect(readOpenFileLimit(() => limits.replace('20000 ', 'unlimited'))).toBeNull();
    expect(
      readOpenFileLimit(() => {
        throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      }),
    ).toBeNull();
    // This process's own, on Linux.
    if (process.platform === 'linux') expect(readOpenFileLimit()).toBeGreaterThan(0);
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
