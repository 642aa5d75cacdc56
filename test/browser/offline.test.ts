import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumUnavailable, isLoopbackUrl, launchChromium, type TestBrowser } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/server.js';

// The browser tests assert "nothing was blocked"; these check that the guard would have seen it if it were not so.

describe('isLoopbackUrl', () => {
  it.each([
    'http://127.0.0.1:4700/docs',
    'http://127.8.9.10/',
    'ws://localhost:4700/v1/realtime',
    'https://LOCALHOST/',
    'http://[::1]:4700/',
    'data:text/plain,hi',
    'blob:http://127.0.0.1:4700/0b0e',
    'about:blank',
  ])('lets %s through', (url) => {
    expect(isLoopbackUrl(url)).toBe(true);
  });

  it.each([
    'https://fonts.scalar.com/inter-latin.woff2',
    'https://cdn.jsdelivr.net/npm/@scalar/api-reference',
    'http://10.0.0.1/',
    'http://128.0.0.1/',
    'http://127.0.0.1.example.com/',
    'http://localhost.example.com/',
    'http://[::2]/',
    'wss://proxy.scalar.com/',
    'not a url',
  ])('blocks %s', (url) => {
    expect(isLoopbackUrl(url)).toBe(false);
  });
});

describe.skipIf(chromiumUnavailable('the offline browser guard tests'))('offline browser context', () => {
  let server: TestServer;
  let chromium: TestBrowser;
  beforeAll(async () => {
    server = await startTestServer();
    chromium = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await chromium?.close();
    await server?.dispose();
  });

  it('loads loopback pages and blocks, and records, every fetch, image and WebSocket off the machine', async () => {
    const { newPage, blocked, close } = await chromium.newOfflineContext();
    const page = await newPage();
    const res = await page.goto(`${server.url}/openapi.json`);
    expect(res?.status()).toBe(200);

    const outcome = await page.evaluate(async () => {
      const { Image, WebSocket } = globalThis as unknown as PageGlobals;
      const attempt = (url: string) =>
        fetch(url).then(
          (r) => r.status,
          (e: unknown) => String(e),
        );
      const image = (src: string) =>
        new Promise<string>((resolve) => {
          const img = new Image();
          img.onload = () => resolve('loaded');
          img.onerror = () => resolve('error');
          img.src = src;
        });
      const socket = (url: string) =>
        new Promise<number>((resolve) => {
          const ws = new WebSocket(url);
          ws.onclose = (event) => resolve(event.code);
        });
      return {
        local: await attempt('/openapi.json'),
        remote: await attempt('https://example.com/data.json'),
        lan: await attempt('http://10.0.0.1/'),
        image: await image('https://fonts.example.com/logo.png'),
        socket: await socket('wss://example.com/socket'),
      };
    });

    expect(outcome).toEqual({
      local: 200,
      remote: expect.stringContaining('Failed to fetch'),
      lan: expect.stringContaining('Failed to fetch'),
      image: 'error',
      socket: 1008,
    });
    expect(blocked.sort()).toEqual([
      'http://10.0.0.1/',
      'https://example.com/data.json',
      'https://fonts.example.com/logo.png',
      'wss://example.com/socket',
    ]);
    await close();
  }, 60_000);
});

/** The browser globals used inside `page.evaluate` (the project's tsconfig has no DOM lib, and should not get one). */
interface PageGlobals {
  Image: new () => { onload: (() => void) | null; onerror: (() => void) | null; src: string };
  WebSocket: new (url: string) => { onclose: ((event: { code: number }) => void) | null };
}
