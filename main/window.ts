import { fileURLToPath } from 'node:url';
import { BrowserWindow, shell } from 'electron';
import type { VersionArgument } from './bridge.js';
import { decideNavigation } from './navigation.js';

/** Compiled from preload.cts next to this file. */
const PRELOAD = fileURLToPath(new URL('./preload.cjs', import.meta.url));

export interface MainWindowOptions {
  serverUrl: string;
  version: string;
}

/** The dashboard window: the embedded server's page in a sandboxed, isolated renderer. */
export function createMainWindow({ serverUrl, version }: MainWindowOptions): BrowserWindow {
  const versionArgument: VersionArgument = `--switchboard-version=${version}`;
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    title: 'Switchboard',
    show: false,
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webviewTag: false,
      additionalArguments: [versionArgument],
    },
  });
  keepOnOrigin(window, new URL(serverUrl).origin);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(serverUrl);
  return window;
}

/** Links away from the server open in the system browser; the window itself never leaves. */
function keepOnOrigin(window: BrowserWindow, origin: string): void {
  const contents = window.webContents;
  const openExternally = (url: string) => {
    shell.openExternal(url).catch((err: unknown) => console.error(`Switchboard: could not open ${url}`, err));
  };
  contents.setWindowOpenHandler(({ url }) => {
    if (decideNavigation(url, origin, 'new-window') === 'open-externally') openExternally(url);
    return { action: 'deny' };
  });
  const guard = (event: { preventDefault(): void }, url: string) => {
    const decision = decideNavigation(url, origin, 'navigate');
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'open-externally') openExternally(url);
  };
  contents.on('will-navigate', (event) => guard(event, event.url));
  contents.on('will-redirect', (event) => {
    if (event.isMainFrame) guard(event, event.url);
  });
}

/** Brings an existing window to the front (a second launch of the app lands here). */
export function focusWindow(window: BrowserWindow | undefined): void {
  if (!window || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
