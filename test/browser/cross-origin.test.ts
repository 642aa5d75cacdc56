import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppFile, type AppOrigin, appPage, sdkBrowserBuild, startAppOrigin } from '../support/app-origin.js';
import { chromiumUnavailable, launchChromium, type OfflineContext, type TestBrowser } from '../support/chromium.js';
import { createConversation, createRoom, mintChatToken, mintRtcToken, projectWithKeys } from '../support/factories.js';
import { client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

const APP_SCRIPT: AppFile = {
  type: 'text/javascript',
  body: readFileSync(new URL('./cross-origin-app.js', import.meta.url), 'utf8'),
};

interface RunResult {
  sentId: string;
  receivedId: string;
  socketExtensions: string;
  longReceived: boolean;
  listedTexts: string[];
  attachmentStatus: string;
  download: { status: number; text: string };
  telemetry: { status: number; body: unknown; requestId: string | null };
}
interface TryListResult {
  ok: boolean;
  count?: number;
  error?: { name: string; code: string; status: number; message: string };
}
// The page's globals (this project's TypeScript has no DOM library).
declare const window: {
  chatApp: {
    run(options: Record<string, string>): Promise<RunResult>;
    tryList(options: { baseUrl: string; token: string }): Promise<TryListResult>;
  };
};

/**
 * A web app on its own origin (`http://localhost:<port>`, as Vite serves one) calling Switchboard with the SDK's
 * browser build: every REST call is cross-origin, so the browser sends a preflight first and reads the answer only
 * if Switchboard allows the origin. Before CORS every call here failed with "Failed to fetch".
 */
describe.skipIf(chromiumUnavailable('the cross-origin browser tests'))('a browser app on another origin', () => {
  let chromium: TestBrowser;
  let app: AppOrigin;
  const contexts: OfflineContext[] = [];
  const servers: TestServer[] = [];

  beforeAll(async () => {
    app = await startAppOrigin({
      '/': appPage('Chat app', '/app.js'),
      '/app.js': APP_SCRIPT,
      '/sdk.js': await sdkBrowserBuild(),
    });
    chromium = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await chromium?.close();
    await app?.close();
    await Promise.all(servers.map((server) => server.dispose()));
  });

  async function startServer(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
    const server = await startTestServer(options);
    servers.push(server);
    return server;
  }

  /** The app's page, with the console errors and failed requests it saw. */
  async function openApp(): Promise<{ page: Page; consoleErrors: string[]; blocked: string[] }> {
    const context = await chromium.newOfflineContext();
    contexts.push(context);
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(`${app.url}/`);
    await page.waitForFunction(() => window.chatApp !== undefined);
    return { page, consoleErrors, blocked: context.blocked };
  }

  it('sends, lists and receives messages, moves an attachment through its signed URLs and posts telemetry (local mode)', async () => {
    const server = await startServer();
    const api = client(server.url);
    const { keys } = await projectWithKeys(api);
    const conversation = await createConversation(api, keys.development, { members: ['alice', 'bob'] });
    const room = await createRoom(api, keys.development, 'browser-call');
    const rtc = await mintRtcToken(api, keys.development, room.id, { identity: 'alice' });

    const { page, consoleErrors, blocked } = await openApp();
    const result = await page.evaluate((options) => window.chatApp.run(options), {
      baseUrl: server.url,
      aliceToken: await mintChatToken(api, keys.development, 'alice'),
      bobToken: await mintChatToken(api, keys.development, 'bob'),
      rtcToken: rtc.token,
      conversationId: conversation.id,
    });

    expect(result.receivedId).toBe(result.sentId);
    expect(result.socketExtensions).toMatch(/^permessage-deflate/);
    expect(result.longReceived).toBe(true);
    expect(result.listedTexts).toContain('Hello from another origin');
    expect(result.attachmentStatus).toBe('COMPLETED');
    expect(result.download).toEqual({ status: 200, text: 'attachment bytes from a browser app' });
    // The app reads the answer and the request id header (exposed to it) of a call made with the RTC token.
    expect(result.telemetry.status).toBe(202);
    expect(result.telemetry.body).toEqual({ accepted: 1 });
    expect(result.telemetry.requestId).toMatch(/\S/);
    expect(consoleErrors).toEqual([]);
    expect(blocked).toEqual([]);
  }, 60_000);

  it('works in production mode from a configured origin, and fails clearly from any other', async () => {
    const allowing = await startServer({ mode: 'production', security: { allowedOrigins: [app.url] } });
    const refusing = await startServer({ mode: 'production', security: { allowedOrigins: ['https://app.example'] } });
    const tokens = await Promise.all(
      [allowing, refusing].map(async (server) => {
        const api = client(server.url);
        const { keys } = await projectWithKeys(api);
        return mintChatToken(api, keys.development, 'alice');
      }),
    );

    const { page, consoleErrors } = await openApp();
    const allowed = await page.evaluate((o) => window.chatApp.tryList(o), { baseUrl: allowing.url, token: tokens[0] });
    expect(allowed).toEqual({ ok: true, count: 0 });

    const refused = await page.evaluate((o) => window.chatApp.tryList(o), { baseUrl: refusing.url, token: tokens[1] });
    // The browser blocks the call after the refused preflight: the app sees the SDK's network error…
    expect(refused).toMatchObject({ ok: false, error: { name: 'SwitchboardError', code: 'CLIENT_NETWORK_ERROR' } });
    // …and the developer sees why in the browser's console.
    expect(consoleErrors.join('\n')).toContain('CORS policy');
  }, 60_000);
});
