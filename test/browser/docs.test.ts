import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumUnavailable, launchChromium, type TestBrowser } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Scalar's standalone bundle is 3.5 MB of JavaScript: parsing it and rendering the document takes a few seconds
// on a busy CI machine, so every wait here is generous.
const RENDER_TIMEOUT = 60_000;

describe.skipIf(chromiumUnavailable('the /docs browser tests'))('/docs in headless Chromium, offline', () => {
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

  /** A page of a fresh context that reaches nothing but loopback, with what it loaded and any uncaught error. */
  async function openDocs() {
    const offline = await chromium.newOfflineContext();
    const page = await offline.newPage();
    page.setDefaultTimeout(RENDER_TIMEOUT);
    const loaded: { url: string; status: number; type: string }[] = [];
    page.on('response', (res) =>
      loaded.push({ url: res.url(), status: res.status(), type: res.request().resourceType() }),
    );
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Scalar validates the document it loads and warns in the console about what it cannot read.
    const consoleProblems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') consoleProblems.push(message.text());
    });
    const res = await page.goto(`${server.url}/docs`);
    expect(res?.status()).toBe(200);
    // The first tag (Auth) is open by default, so its first operation renders without any click.
    await visible(page.getByRole('heading', { name: 'Create an account' }));
    return { ...offline, page, loaded, pageErrors, consoleProblems };
  }

  it('renders the API reference from /openapi.json with the script served locally and nothing fetched off the machine', async () => {
    const { page, loaded, pageErrors, consoleProblems, blocked, close } = await openDocs();
    expect(await page.title()).toBe('Switchboard API');
    await visible(page.getByRole('heading', { name: 'Switchboard API', level: 1 }));

    // Other tags start collapsed: opening them in the sidebar renders their operations.
    const sidebar = page.getByRole('navigation');
    await sidebar.getByRole('button', { name: /^Projects\b/ }).click();
    await visible(page.getByRole('heading', { name: 'Create a project' }));
    await sidebar.getByRole('button', { name: /^API keys\b/ }).click();
    await visible(page.getByRole('heading', { name: 'Create an API key' }));

    const script = loaded.find((r) => r.url === `${server.url}/docs/scalar.js`);
    expect(script).toMatchObject({ status: 200, type: 'script' });
    expect(loaded.find((r) => r.url === `${server.url}/openapi.json`)).toMatchObject({ status: 200, type: 'fetch' });
    expect(loaded.filter((r) => new URL(r.url).origin !== server.url)).toEqual([]);
    // No web fonts, CDN script, telemetry or agent: Chromium was never asked for a host off the machine.
    expect(blocked).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(consoleProblems.filter((text) => /validation/i.test(text))).toEqual([]);
    // hideClientButton: no "Open API Client" link that would open client.scalar.com with this server's document.
    expect(await page.locator('a[href*="client.scalar.com"]').count()).toBe(0);
    await close();
  }, 120_000);

  it("sends Scalar's Test Request straight to this server, not through Scalar's proxy", async () => {
    const { page, loaded, pageErrors, blocked, close } = await openDocs();
    await page.getByRole('button', { name: 'Test Request (post /v1/auth/register)' }).click();
    const client = page.getByRole('dialog');
    await visible(client);
    // The example body has empty strings: the server itself answers, with its validation error.
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${server.url}/v1/auth/register`),
      client.getByRole('button', { name: /^Send post request to/ }).click(),
    ]);
    expect(res.status()).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'SERVICE_VALIDATION_FAILED' });
    await visible(client.getByText('SERVICE_VALIDATION_FAILED').first());

    expect(loaded.filter((r) => new URL(r.url).origin !== server.url)).toEqual([]);
    expect(blocked).toEqual([]);
    expect(pageErrors).toEqual([]);
    await close();
  }, 120_000);
});

function visible(locator: Locator): Promise<void> {
  return locator.waitFor({ state: 'visible', timeout: RENDER_TIMEOUT });
}
