import type { Command } from 'commander';
import { ConsoleClient, DEFAULT_BASE_URL, NETWORK_ERROR, SwitchboardError } from '../sdk/index.js';
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

/** The server refused the credential itself (401): a session signed out or expired, a key revoked. */
export const isRefusedCredential = (err: unknown): boolean => err instanceof SwitchboardError && err.status === 401;

/** No session stored for the server: said only once the server is known to answer (see `action`). */
class NotSignedInError extends CommandError {}

/** Why a request got no answer at all: the system's code (ECONNREFUSED, ENOTFOUND…) where there is one. */
function unreachableReason(err: SwitchboardError | Error): string {
  let cause: unknown = err.cause;
  // The SDK's error wraps fetch's "fetch failed", which wraps the system's error.
  while (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && !code.startsWith('UND_ERR')) return code;
    if (!(cause.cause instanceof Error)) return cause.message;
    cause = cause.cause;
  }
  return err.message;
}

const cannotReach = (url: string, err: Error) =>
  new CommandError(
    `cannot reach the server at ${url} (${unreachableReason(err)}): is it running? Start it with \`switchboard serve\`, ` +
      'or name another with --url or SWITCHBOARD_URL',
  );

/** Whether anything answers HTTP at `url`; a connection refused, a DNS failure or 5 s of silence is no. */
async function answers(url: string): Promise<Error | null> {
  try {
    await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5000) });
    return null;
  } catch (err) {
    return err as Error;
  }
}

/** What a command works with: the server, the config folder, the output, all from options and I/O. */
export class CliContext {
  readonly url: string;
  readonly out: Output;
  readonly folder: ConfigFolder;

  constructor(
    readonly io: CliIo,
    /** The global options as given (`url` undefined unless --url was written). */
    readonly options: GlobalOptions,
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
    if (!session) throw new NotSignedInError(`not signed in to ${this.url}; run \`switchboard login\` first`);
    return session;
  }

  /** A client signed in with the stored session. */
  client(): ConsoleClient {
    return new ConsoleClient({ baseUrl: this.url, token: this.session().token });
  }

  /**
   * `--project`, else the project chosen with `projects use`, else the signed-in user's only project (named on
   * stderr, so that a second project later is no surprise). With none or several, a usage error.
   */
  async projectId(flag: string | undefined): Promise<string> {
    const projectId = flag ?? this.folder.project(this.url);
    if (projectId) return projectId;
    const projects = (await this.client().projects.list()).data;
    const only = projects.length === 1 ? projects[0] : undefined;
    if (only) {
      this.out.note(`Using project ${only.id} ("${only.name}"), your only one.`);
      return only.id;
    }
    throw new UsageError(
      projects.length
        ? `no project given, and you have ${projects.length}: pass --project <id>, or choose one with ` +
            '`switchboard projects use <id>` (`switchboard projects list` shows them)'
        : 'no project given, and you have none: create one with `switchboard projects create <name>`',
    );
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
    const ctx = new CliContext(io, command.optsWithGlobals<GlobalOptions>());
    try {
      await run(ctx, ...(args.slice(0, -1) as Args));
    } catch (err) {
      // A server that is down is what to fix first, whatever else the command would have said.
      if (err instanceof SwitchboardError && err.code === NETWORK_ERROR) throw cannotReach(ctx.url, err);
      const unreachable = err instanceof NotSignedInError ? await answers(ctx.url) : null;
      throw unreachable ? cannotReach(ctx.url, unreachable) : err;
    }
  };
}
