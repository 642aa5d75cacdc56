import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium, type OfflineContext, type TestBrowser } from '../../support/chromium.js';
import { PASSWORD } from '../../support/factories.js';
import { type Client, client } from '../../support/http.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/** Git-ignored: what the user sees on every page the tests visit, in light and dark. */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'dashboard');
const WAIT = 15_000;
const LIVE_EVENTS = /^\/v1\/projects\/[^/]+\/events$/;
const FAVICON = /^\/assets\/favicon-[\w-]+\.svg$/;

/** An answer the test provokes on purpose (a wrong password, an address without an account…). */
interface ExpectedFailure {
  status: number;
  path: RegExp;
}

export interface DashboardPage {
  page: Page;
  context: OfflineContext;
  /** Declares failing answers (any number) that the test provokes; any other failing request fails the test. */
  expectFailure(status: number, path: RegExp): void;
  /** Declares console errors (any number) that the test provokes, e.g. the dashboard logging a page that failed. */
  expectConsoleError(text: RegExp): void;
  /** Axe (no serious or critical violation) and a screenshot, in light and in dark. */
  checkPage(name: string): Promise<void>;
  /** No uncaught error, console error, unexpected failed request or request off the machine so far. */
  expectClean(): void;
  close(): Promise<void>;
}

/**
 * One server and one browser for the tests of a file; each test opens its own context (its own storage).
 * `chromiumArgs`: more switches, e.g. the fake camera and microphone of a test call; `server` options reach
 * `startTestServer`, e.g. a clock the test moves to make webhook retries come due.
 */
export function useDashboard(
  options: { chromiumArgs?: string[]; server?: Parameters<typeof startTestServer>[0] } = {},
) {
  let server: TestServer;
  let chromium: TestBrowser;
  let api: Client;
  const open: DashboardPage[] = [];
  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    server = await startTestServer(options.server);
    api = client(server.url);
    chromium = await launchChromium({ args: options.chromiumArgs });
  }, 60_000);
  afterAll(async () => {
    for (const page of open) await page.close().catch(() => {});
    await chromium?.close();
    await server?.dispose();
  });

  async function openPage(path = '/'): Promise<DashboardPage> {
    const context = await chromium.newOfflineContext({ colorScheme: 'light', viewport: { width: 1280, height: 800 } });
    await context.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT);
    const problems: string[] = [];
    const expected: ExpectedFailure[] = [];
    let provokedConsoleErrors = 0;
    const expectedConsole: RegExp[] = [];
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
    page.on('requestfailed', (request) => {
      const { pathname } = new URL(request.url());
      // The dashboard closes the live event stream when the page leaves its project or environment.
      if (LIVE_EVENTS.test(pathname) && request.failure()?.errorText === 'net::ERR_ABORTED') return;
      // The browser fetches the tab's icon on its own, late; a test going to another address aborts it.
      if (FAVICON.test(pathname) && request.failure()?.errorText === 'net::ERR_ABORTED') return;
      // Status 0: a request the test makes fail before any answer (e.g. an aborted script).
      if (expected.some((e) => e.status === 0 && e.path.test(pathname))) provokedConsoleErrors++;
      else problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
    });
    page.on('response', (response) => {
      if (response.status() < 400) return;
      const { pathname } = new URL(response.url());
      if (expected.some((e) => e.status === response.status() && e.path.test(pathname))) provokedConsoleErrors++;
      else problems.push(`HTTP ${response.status()} ${response.request().method()} ${pathname}`);
    });
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // Chromium logs every failed answer as a console error: those the test provoked are expected.
      if (/^Failed to load resource: /.test(message.text()) && provokedConsoleErrors > 0) {
        provokedConsoleErrors--;
        return;
      }
      if (!expectedConsole.some((text) => text.test(message.text()))) problems.push(`console error: ${message.text()}`);
    });
    const dashboardPage: DashboardPage = {
      page,
      context,
      expectFailure: (status, path) => expected.push({ status, path }),
      expectConsoleError: (text) => expectedConsole.push(text),
      async checkPage(name) {
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          // Axe reads colours: let fades and transitions (notifications, modals) start and finish first.
          await page.waitForTimeout(300);
          await animationsSettled(page);
          const { violations } = await new AxeBuilder({ page }).analyze();
          const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
          expect(
            serious.map(
              (v) =>
                `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')} [${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}]`).join(', ')}`,
            ),
            `axe on ${name} (${scheme})`,
          ).toEqual([]);
          await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${scheme}.png`), fullPage: true });
        }
        await page.emulateMedia({ colorScheme: 'light' });
      },
      expectClean() {
        expect(problems, 'page problems').toEqual([]);
        expect(context.blocked, 'requests off the machine').toEqual([]);
      },
      close: () => context.close(),
    };
    open.push(dashboardPage);
    if (path) await page.goto(server.url + path);
    return dashboardPage;
  }

  return {
    get url() {
      return server.url;
    },
    get server() {
      return server;
    },
    get api() {
      return api;
    },
    openPage,
  };
}

/** What functions run in the page use of it (this file is compiled without the DOM types). */
interface PageGlobals {
  document: { getAnimations(): { playState: string }[] };
}

/**
 * Waits until no CSS animation or transition runs. Polled with evaluate: waitForFunction's polling evaluates its
 * predicate with eval in the page, which the page's Content Security Policy refuses.
 */
async function animationsSettled(page: Page): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const running = await page.evaluate(
      () =>
        (globalThis as unknown as PageGlobals).document.getAnimations().filter((a) => a.playState === 'running').length,
    );
    if (running === 0) return;
    await page.waitForTimeout(100);
  }
}

/** Presses Tab until `target` has the focus (at most `max` times): proof that the keyboard reaches it. */
export async function tabTo(page: Page, target: Locator, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el.contains(el.ownerDocument.activeElement))) return;
  }
  throw new Error(`Tab never reached ${target}`);
}

export function visible(locator: Locator): Promise<void> {
  return locator.waitFor({ state: 'visible' });
}

/** The session token the dashboard keeps in the page's localStorage (undefined when signed out). */
export async function storedToken(page: Page): Promise<string | undefined> {
  const raw = (await page.evaluate("localStorage.getItem('switchboard.session')")) as string | null;
  return raw ? (JSON.parse(raw) as { token: string }).token : undefined;
}

/** Signs in on the sign-in page the page is showing, as a user types it. */
export async function signIn({ page }: DashboardPage, email: string, password = PASSWORD): Promise<void> {
  await visible(page.getByRole('heading', { name: 'Sign in' }));
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
