import type { Command } from 'commander';
import { ConsoleClient, DEFAULT_BASE_URL, SwitchboardError } from '../sdk/index.js';
import { ConfigFolder, type StoredSession } from './config-folder.js';
import { CommandError, UsageError } from './errors.js';
import type { CliIo } from './io.js';
import { Output } from './output.js';
import { defaultConfigDir } from './user-folders.js';

/** The options every command takes. */
export interface GlobalOptions {
  url?: string;
  json?: boolean;
}

/**
 * `--url`, else `SWITCHBOARD_URL`, else the default. Written without a trailing slash, so that a
 * server has one name in the config folder however it was typed.
 */
export function resolveServerUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const [value, source] =
    flag !== undefined
      ? [flag, '--url']
      : env.SWITCHBOARD_URL
        ? [env.SWITCHBOARD_URL, 'SWITCHBOARD_URL']
        : [DEFAULT_BASE_URL, 'the default URL'];
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash)
    throw new UsageError(`${source} must be an http:// or https:// URL such as ${DEFAULT_BASE_URL}, not "${value}"`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** What a command works with: the server, the config folder, the output, all from options and I/O. */
/** The server refused the credential itself (401): a session signed out or expired, a key revoked. */
export const isRefusedCredential = (err: unknown): boolean => err instanceof SwitchboardError && err.status === 401;

export class CliContext {
  readonly url: string;
  readonly out: Output;
  readonly folder: ConfigFolder;

  constructor(
    readonly io: CliIo,
    options: GlobalOptions,
  ) {
    this.url = resolveServerUrl(options.url, io.env);
    this.out = new Output(io, options.json === true);
    this.folder = new ConfigFolder(defaultConfigDir(io.env, io.platform));
  }

  /** A client with no session, to sign in with. */
  anonymousClient(): ConsoleClient {
    return new ConsoleClient({ baseUrl: this.url });
  }

  /** The session stored for this server by `login`. */
  session(): StoredSession {
    const session = this.folder.session(this.url);
    if (!session) throw new CommandError(`not signed in to ${this.url}; run \`switchboard login\` first`);
    return session;
  }

  /** A client signed in with the stored session. */
  client(): ConsoleClient {
    return new ConsoleClient({ baseUrl: this.url, token: this.session().token });
  }

  /** `--project`, else the project chosen with `projects use`. */
  projectId(flag: string | undefined): string {
    const projectId = flag ?? this.folder.project(this.url);
    if (!projectId)
      throw new UsageError('no project given: pass --project <id>, or choose one with `switchboard projects use <id>`');
    return projectId;
  }
}

/**
 * A commander action that gets the context first, then the command's own arguments and options
 * (commander passes those, then the command itself, whose options include the global ones).
 */
export function action<Args extends unknown[]>(
  io: CliIo,
  run: (ctx: CliContext, ...args: Args) => Promise<void>,
): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    const command = args[args.length - 1] as Command;
    await run(new CliContext(io, command.optsWithGlobals<GlobalOptions>()), ...(args.slice(0, -1) as Args));
  };
}
