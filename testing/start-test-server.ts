import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import WebSocket from 'ws';
import { ChatClient, ConsoleClient, ENVIRONMENTS, ServerClient, type WebSocketConstructor } from '../sdk/index.js';
import type { Environment } from '../sdk/types.js';
import {
  parseSeed,
  type Seed,
  SeedError,
  type SeededProject,
  type SeedInput,
  type SeedOutcome,
  startServer,
} from '../server/index.js';
import { generateKeyText } from '../server/keys/key-text.js';

type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/**
 * A seed, as `switchboard seed init` writes one (schemas/seed.json): an object, or its text (comments allowed).
 * Read-only, so that a literal written inline keeps its project names as types.
 */
export type TestSeed = DeepReadonly<SeedInput>;

/** The project names a seed declares: literal types when the seed is written inline, else `string`. */
export type ProjectNameOf<S> = S extends { readonly projects: readonly { readonly name: infer N extends string }[] }
  ? N
  : string;

/** The seed used when none is given: one account, one project. */
const DEFAULT_SEED = {
  user: { email: 'owner@example.test', password: 'startTestServer owner' },
  projects: [{ name: 'Test' }],
} as const satisfies TestSeed;

export type DefaultSeed = typeof DEFAULT_SEED;

export interface TestServerOptions<S extends TestSeed | string = DefaultSeed> {
  /** What the server starts with (default: an account owner@example.test and a project named "Test"). */
  seed?: S;
  /** The server's log, on standard output (default `silent`): `error` shows what made a request answer 500. */
  logLevel?: 'silent' | 'error' | 'warn' | 'info' | 'debug';
}

export interface ChatClientRequest<P extends string = string> {
  /** The project whose chat the user joins (default: the seed's first project). */
  project?: P;
  /** Default `development`. */
  environment?: Environment;
  /** Open the realtime socket before answering (default true); false leaves `connect()` to the caller. */
  connect?: boolean;
}

/** Clients of the test server, each ready to use; the server closes them with itself. */
export interface TestClients<P extends string = string> {
  /** A ServerClient with each project's key of each environment (`clients.server['My app'].development`). */
  server: Record<P, Record<Environment, ServerClient>>;
  /**
   * A ChatClient for one of your app's users (any id: `alice`), with a chat token minted by the project's key of
   * the environment; connected to the realtime socket unless `connect: false`.
   */
  chat(userId: string, options?: ChatClientRequest<P>): Promise<ChatClient>;
  /** A ConsoleClient signed in as the seed's user, who owns every project. */
  console: ConsoleClient;
}

export interface TestServer<P extends string = string> {
  /** e.g. `http://127.0.0.1:38915` */
  url: string;
  /**
   * An API key for each project and environment (`keys['My app'].development`): the first one the seed gives for
   * that environment, or one made up for it (named `startTestServer`).
   */
  keys: Record<P, Record<Environment, string>>;
  clients: TestClients<P>;
  /** What the seed created, with ids: its user, and each project by name (lists in the seed's order). */
  seed: { user: { id: string; email: string }; projects: Record<P, SeededProject> };
  /** The temporary data folder, removed by `close()`. */
  dataDir: string;
  /** Sends every webhook delivery now due and resolves when none is in flight (the server does this every second). */
  runDueWebhooks(): Promise<void>;
  /** Closes the clients it made, stops the server and removes its data folder. Safe to call twice. */
  close(): Promise<void>;
  /** `await using server = await startTestServer(…)` closes it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** The seed of `options`, parsed as `switchboard serve --seed` parses a file: a SeedError names each bad field. */
function readSeed(seed: TestSeed | string | undefined): Seed {
  const source = "startTestServer's seed";
  const parsed = parseSeed(typeof seed === 'string' ? seed : JSON.stringify(seed ?? DEFAULT_SEED), source);
  const seen = new Set<string>();
  parsed.projects.forEach(({ name }, i) => {
    if (seen.has(name))
      throw new SeedError(
        `${source} is not a valid seed; nothing was created:\n  projects[${i}].name: another project is named ` +
          `"${name}" too, and startTestServer names keys and clients by project`,
      );
    seen.add(name);
  });
  return parsed;
}

/** A record of `make(environment)` for each environment. */
const perEnvironment = <T>(make: (environment: Environment) => T) =>
  Object.fromEntries(ENVIRONMENTS.map((environment) => [environment, make(environment)])) as Record<Environment, T>;

/** Each project's key text of each environment: the seed's first, or a new one added to the seed. */
function keyEveryEnvironment(seed: Seed): Record<string, Record<Environment, string>> {
  const keys: Record<string, Record<Environment, string>> = {};
  for (const project of seed.projects) {
    keys[project.name] = perEnvironment((environment) => {
      const given = project.apiKeys.find((key) => key.environment === environment);
      if (given) return given.key;
      const key = generateKeyText(environment).text;
      project.apiKeys.push({ name: 'startTestServer', environment, key });
      return key;
    });
  }
  return keys;
}

/**
 * Starts a Switchboard server for a test suite: in this process, on a free loopback port, with a new temporary data
 * folder and the given seed applied, its API loaded and ready for the first call. See docs/testing-your-app.md.
 */
export async function startTestServer<const S extends TestSeed | string = DefaultSeed>(
  options: TestServerOptions<S> = {},
): Promise<TestServer<ProjectNameOf<S>>> {
  const seed = readSeed(options.seed);
  const keys = keyEveryEnvironment(seed);
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-test-'));
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      dataDir,
      port: 0,
      host: '127.0.0.1',
      seed,
      passwordHashing: 'fast',
      logger: pino({ level: options.logLevel ?? 'silent' }),
    });
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const { url } = server;
  const outcome = server.seed as Extract<SeedOutcome, { applied: true }>;
  const chats = new Set<ChatClient>();
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      for (const chat of chats) chat.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    })();
    return closing;
  };

  try {
    const consoleClient = new ConsoleClient({ baseUrl: url });
    await consoleClient.auth.login({ email: seed.user.email, password: seed.user.password });
    const servers: Record<string, Record<Environment, ServerClient>> = Object.fromEntries(
      Object.entries(keys).map(([name, byEnvironment]) => [
        name,
        perEnvironment((environment) => new ServerClient({ baseUrl: url, apiKey: byEnvironment[environment] })),
      ]),
    );
    const projects: Record<string, SeededProject> = Object.fromEntries(
      outcome.projects.map((project) => [project.name, project]),
    );
    return {
      url,
      keys,
      clients: {
        server: servers,
        console: consoleClient,
        async chat(userId, { project = seed.projects[0]?.name, environment = 'development', connect = true } = {}) {
          const backend = project === undefined ? undefined : servers[project]?.[environment];
          if (!backend)
            throw new Error(
              `startTestServer: the seed has no project${project === undefined ? 's' : ` named ${project}`}`,
            );
          const { token } = await backend.chatTokens.create({ userId });
          const chat = new ChatClient({ baseUrl: url, token, WebSocket: WebSocket as unknown as WebSocketConstructor });
          chats.add(chat);
          if (connect) await chat.connect();
          return chat;
        },
      },
      seed: { user: outcome.user, projects },
      dataDir,
      runDueWebhooks: () => server.runDueWebhooks(),
      close,
      [Symbol.asyncDispose]: close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
