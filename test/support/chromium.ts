import { existsSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';

/**
 * Browser tests drive the system Chromium (Debian's `chromium` package, which CI installs) with playwright-core,
 * so no browser is ever downloaded. `CHROMIUM_PATH` points them at another build, e.g. on a laptop.
 */
export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** The Chromium the browser tests launch, or `undefined` when it is not installed here. */
export const chromiumPath: string | undefined = existsSync(CHROMIUM_EXECUTABLE) ? CHROMIUM_EXECUTABLE : undefined;

/**
 * True when there is no Chromium to launch, after printing why, for `describe.skipIf(...)` / `it.skipIf(...)`:
 * a skipped browser test then says so in the run's output instead of passing silently.
 */
export function chromiumUnavailable(what = 'browser tests'): boolean {
  if (chromiumPath) return false;
  console.warn(
    `Skipping ${what}: no Chromium at ${CHROMIUM_EXECUTABLE} (install it with \`apt-get install chromium\` or set CHROMIUM_PATH).`,
  );
  return true;
}

/** Chromium switches every browser test wants: headless, and none of Chromium's own traffic to Google. */
export const BASE_CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Debian's launcher means to add this when /dev/shm is small (as in Docker's 64 MB default), but its check in
  // /etc/chromium.d/dev-shm breaks ("[: ...: unexpected operator") when findmnt lists /dev/shm twice.
  '--disable-dev-shm-usage',
];

/**
 * Belt and braces under the request routing below: Chromium resolves no host name but localhost, so even traffic
 * that playwright cannot see (the browser process's own, or a page's WebRTC/STUN) cannot leave the machine.
 */
export const OFFLINE_RESOLVER_ARG =
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.*, EXCLUDE [::1]';

/**
 * The switches of every media test (the guide's fake-device ones): a fake camera and microphone granted without a
 * prompt, and peers on one machine connecting over loopback with host addresses, so nothing needs STUN, TURN or mDNS.
 */
export const MEDIA_CHROMIUM_ARGS = [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
];

export interface LaunchOptions {
  /** More switches, e.g. `--use-fake-device-for-media-stream` and `--use-fake-ui-for-media-stream` for WebRTC. */
  args?: string[];
  /** Leave out {@link OFFLINE_RESOLVER_ARG} (for a test that needs Chromium's host resolver, e.g. mDNS). */
  allowHostResolution?: boolean;
}

export interface OfflineContext {
  context: BrowserContext;
  /** Every http(s) or ws(s) URL off the machine that a page of this context tried to reach (each was blocked). */
  blocked: string[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export interface TestBrowser extends AsyncDisposable {
  browser: Browser;
  /** A new isolated context (own cookies and storage) in which nothing but loopback hosts can be reached. */
  newOfflineContext(options?: BrowserContextOptions): Promise<OfflineContext>;
  /** Closes the browser; Chromium's temporary profile folder goes with it. */
  close(): Promise<void>;
}

/**
 * Launches headless Chromium with a fresh profile. `--user-data-dir` is not in the switches because playwright
 * refuses it in `launch()` (a chosen profile folder is what `launchPersistentContext` is for): `launch()` itself
 * gives each browser a new temporary profile (`$TMPDIR/playwright_chromiumdev_profile-*`) and deletes it on
 * `close()`, and each `newOfflineContext()` is an isolated, incognito-like context within it.
 */
export async function launchChromium(options: LaunchOptions = {}): Promise<TestBrowser> {
  if (!chromiumPath)
    throw new Error(`No Chromium at ${CHROMIUM_EXECUTABLE}; guard the test with chromiumUnavailable().`);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      ...BASE_CHROMIUM_ARGS,
      ...(options.allowHostResolution ? [] : [OFFLINE_RESOLVER_ARG]),
      ...(options.args ?? []),
    ],
  });
  const close = () => browser.close();
  return {
    browser,
    newOfflineContext: (contextOptions) => newOfflineContext(browser, contextOptions),
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * A context of `browser` that blocks, and records in `blocked`, every request to a host that is not loopback
 * (127.0.0.0/8, localhost, [::1]): page and worker fetches through `route`, WebSockets through `routeWebSocket`.
 * Service workers are off, as their requests could bypass the routes. Other schemes (data:, blob:) stay local.
 */
export async function newOfflineContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<OfflineContext> {
  const context = await browser.newContext({ ...options, serviceWorkers: 'block' });
  const blocked: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (isLoopbackUrl(url)) return route.fallback();
    blocked.push(url);
    return route.abort('blockedbyclient');
  });
  await context.routeWebSocket(
    (url) => !isLoopbackUrl(url),
    (ws) => {
      blocked.push(ws.url());
      return ws.close({ code: 1008, reason: 'blocked by the test: not a loopback host' });
    },
  );
  return { context, blocked, newPage: () => context.newPage(), close: () => context.close() };
}

/** True for a URL that cannot leave the machine: a loopback http(s)/ws(s) host, or a non-network scheme. */
export function isLoopbackUrl(input: string | URL): boolean {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return false;
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) return true;
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  return isIPv4(host) && host.startsWith('127.');
}
