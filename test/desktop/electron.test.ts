// Launches the real desktop app (dist/main/main.js in Electron) and drives it with Playwright.
// Needs the Electron binary, a display, and better-sqlite3 built for Electron's ABI; without any of
// them the suite is skipped and says why.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SwitchboardBridge } from '../../main/bridge.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

function firstLine(err: unknown): string {
  const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
  return (stderr || (err instanceof Error ? err.message : String(err))).split('\n')[0];
}

/** Why the app cannot be launched here; undefined when it can. */
function reasonToSkip(): string | undefined {
  let electronPath: string;
  try {
    // node_modules/electron/index.js throws when the binary was never downloaded.
    electronPath = createRequire(import.meta.url)('electron') as string;
  } catch (err) {
    return `Electron binary not installed (npm skips its download; \`npm run desktop:install\` fetches it): ${firstLine(err)}`;
  }
  if (!existsSync(electronPath)) {
    return `Electron binary not installed (npm skips its download; \`npm run desktop:install\` fetches it): ${electronPath} does not exist`;
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return 'no display to open a window on (run the tests under xvfb-run)';
  }
  return undefined;
}

const skipReason = reasonToSkip();
if (skipReason) console.warn(`Skipping desktop test: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('desktop app', () => {
  let app: ElectronApplication;
  let window: Page;
  let dataDir: string;
  let serverUrl: string;

  beforeAll(async () => {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-desktop-'));
    // The project folder, not dist/main/main.js: Electron then reads package.json (name, version, main).
    app = await _electron.launch({
      args: [ROOT],
      cwd: ROOT,
      env: { ...process.env, SWITCHBOARD_DATA_DIR: dataDir, SWITCHBOARD_PORT: '0' },
    });
    window = await app.firstWindow();
    await window.waitForLoadState('load');
    serverUrl = new URL(window.url()).origin;
  }, 180_000);

  afterAll(async () => {
    await app?.close().catch(() => undefined);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens its window on the embedded server, with the data in SWITCHBOARD_DATA_DIR', async () => {
    expect(serverUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${serverUrl}/`)).status).toBe(200);
    const health = await fetch(`${serverUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', mode: 'local' });
    expect(existsSync(join(dataDir, 'switchboard.db'))).toBe(true);
  });

  it('gives the page the narrow bridge and no Node', async () => {
    const seen = await window.evaluate(async () => {
      const page = globalThis as unknown as { switchboard: SwitchboardBridge; require?: unknown; process?: unknown };
      return {
        keys: Object.keys(page.switchboard).sort(),
        version: page.switchboard.version,
        serverUrl: await page.switchboard.serverUrl(),
        node: [typeof page.require, typeof page.process],
      };
    });
    expect(seen).toEqual({ keys: ['serverUrl', 'version'], version, serverUrl, node: ['undefined', 'undefined'] });
  });

  it('stops the server before it exits', async () => {
    await app.close();
    expect(app.process().exitCode).toBe(0);
    await expect(fetch(`${serverUrl}/healthz`)).rejects.toThrow();
    // SQLite deletes the WAL file when its last connection closes cleanly: server.close() ran.
    expect(existsSync(join(dataDir, 'switchboard.db-wal'))).toBe(false);
  });
});
