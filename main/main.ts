// The Electron main process: one embedded server, one window on it.
import { join } from 'node:path';
import { app, BrowserWindow, dialog, Menu } from 'electron';
import { desktopProfileDir, desktopServeSettings } from './config.js';
import { registerBridgeHandlers } from './ipc.js';
import { buildAppMenu } from './menu.js';
import { startEmbeddedServer } from './server-lifecycle.js';
import { createMainWindow, focusWindow } from './window.js';

const PRODUCT_NAME = 'Switchboard';

// Same name and profile folder whether run from source (`electron .`) or packaged. Both must be set
// before the single-instance lock, which lives in the profile folder.
app.setName(PRODUCT_NAME);
app.setPath('userData', desktopProfileDir(process.env, join(app.getPath('appData'), PRODUCT_NAME)));

if (app.requestSingleInstanceLock()) {
  run().catch((err: unknown) => {
    dialog.showErrorBox(`${PRODUCT_NAME} could not start`, err instanceof Error ? err.message : String(err));
    app.exit(1);
  });
} else {
  app.quit();
}

async function run(): Promise<void> {
  let window: BrowserWindow | undefined;
  app.on('second-instance', () => focusWindow(window));
  await app.whenReady();

  const settings = desktopServeSettings(process.env, app.getPath('userData'));
  const server = await startEmbeddedServer(settings);
  registerBridgeHandlers(server.url);
  Menu.setApplicationMenu(buildAppMenu(server.url));

  const open = () => {
    window = createMainWindow({ serverUrl: server.url, version: app.getVersion() });
  };
  open();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) open();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
