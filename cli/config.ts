import type { DeploymentMode } from '../server/context.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../server/start-server.js';
import { UsageError } from './errors.js';
import { defaultDataDir } from './user-folders.js';

export { defaultDataDir, UsageError };

export interface ServeSettings {
  port: number;
  host: string;
  dataDir: string;
  mode: DeploymentMode;
}

function parsePort(value: string, source: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new UsageError(`${source} must be a port number (0-65535), not "${value}"`);
  return port;
}

function parseMode(value: string, source: string): DeploymentMode {
  const mode = value.toLowerCase();
  if (mode !== 'local' && mode !== 'production')
    throw new UsageError(`${source} must be "local" or "production", not "${value}"`);
  return mode;
}

/**
 * The config layer: the only place that reads the environment. A flag wins over its variable,
 * which wins over the default.
 */
export function resolveServeSettings(
  flags: { port?: string; host?: string; dataDir?: string; mode?: string },
  env: NodeJS.ProcessEnv = process.env,
): ServeSettings {
  const pick = (flag: string | undefined, name: string) =>
    flag !== undefined ? { value: flag, source: `--${name}` } : undefined;
  const port =
    pick(flags.port, 'port') ??
    (env.SWITCHBOARD_PORT ? { value: env.SWITCHBOARD_PORT, source: 'SWITCHBOARD_PORT' } : undefined);
  const mode =
    pick(flags.mode, 'mode') ??
    (env.SWITCHBOARD_MODE ? { value: env.SWITCHBOARD_MODE, source: 'SWITCHBOARD_MODE' } : undefined);
  return {
    port: port ? parsePort(port.value, port.source) : DEFAULT_PORT,
    host: flags.host ?? (env.SWITCHBOARD_HOST || DEFAULT_HOST),
    dataDir: flags.dataDir ?? (env.SWITCHBOARD_DATA_DIR || defaultDataDir(env)),
    mode: mode ? parseMode(mode.value, mode.source) : 'local',
  };
}
