import { homedir } from 'node:os';
import { join } from 'node:path';

/** `Switchboard` in the per-user application folder: on Linux the XDG one given, elsewhere the platform's. */
function userFolder(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  xdg: { variable: 'XDG_DATA_HOME' | 'XDG_CONFIG_HOME'; fallback: string[] },
): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Switchboard');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Switchboard');
  return join(env[xdg.variable] || join(homedir(), ...xdg.fallback), 'switchboard');
}

/** Where the server keeps its database by default. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  return userFolder(env, platform, { variable: 'XDG_DATA_HOME', fallback: ['.local', 'share'] });
}

/** `--data-dir`, else `SWITCHBOARD_DATA_DIR`, else the default data folder. */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv, platform = process.platform): string {
  return flag ?? (env.SWITCHBOARD_DATA_DIR || defaultDataDir(env, platform));
}

/** Where the command-line tool keeps its sign-ins and the project in use. */
export function defaultConfigDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  return userFolder(env, platform, { variable: 'XDG_CONFIG_HOME', fallback: ['.config'] });
}

/**
 * Where the single executable unpacks the files it carries (the SQLite addon, migrations, web assets): the
 * platform's cache folder, which the user may empty at any time.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32')
    return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'Switchboard', 'Cache');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'Switchboard');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'switchboard');
}
