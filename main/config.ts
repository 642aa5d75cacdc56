import { join, resolve } from 'node:path';
import { resolveServeSettings, type ServeSettings } from '../cli/config.js';
import { DEFAULT_HOST } from '../server/start-server.js';

/**
 * The desktop app's settings: the CLI's config layer with desktop defaults. The server always
 * listens on loopback in `local` mode; SWITCHBOARD_DATA_DIR and SWITCHBOARD_PORT are honoured
 * (and validated) exactly as `switchboard serve` does, and otherwise the data lives in the app's
 * userData folder. The port is the same 4700 as the headless server, because SDKs and `.env`
 * files point at http://127.0.0.1:4700 whichever way Switchboard runs.
 */
export function desktopServeSettings(env: NodeJS.ProcessEnv, userDataDir: string): ServeSettings {
  const withDesktopDefaults: NodeJS.ProcessEnv = {
    ...env,
    SWITCHBOARD_DATA_DIR: env.SWITCHBOARD_DATA_DIR || join(userDataDir, 'data'),
  };
  return resolveServeSettings({ host: DEFAULT_HOST, mode: 'local' }, withDesktopDefaults);
}

/**
 * Where Electron keeps its own profile and its single-instance lock. Normally the app's userData
 * folder; with SWITCHBOARD_DATA_DIR set, a folder inside that data dir, so that each data dir is
 * its own instance (a second launch on the same data focuses the first) and a run on a scratch
 * data dir (tests, demos) leaves the user's profile alone.
 */
export function desktopProfileDir(env: NodeJS.ProcessEnv, defaultUserDataDir: string): string {
  return env.SWITCHBOARD_DATA_DIR ? join(resolve(env.SWITCHBOARD_DATA_DIR), 'desktop-profile') : defaultUserDataDir;
}
