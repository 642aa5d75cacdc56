import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { describePostgresUrl } from '../db/postgres-url.js';
import type { SeedOutcome } from '../server/index.js';
import type { ServeFlags } from './config.js';
import { CommandError, UsageError } from './errors.js';

function readInput(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new CommandError(
      `cannot read the ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

const SEEDED = {
  accounts: 'account',
  projects: 'project',
  apiKeys: 'API key',
  rooms: 'room',
  conversations: 'conversation',
  webhooks: 'webhook endpoint',
} as const;

function describeSeed(file: string, outcome: SeedOutcome): string {
  if (!outcome.applied) return `Seed ${file} not applied: ${outcome.reason} (a seed only fills an empty data folder).`;
  const created = Object.entries(outcome.created)
    .filter(([, n]) => n > 0)
    .map(([what, n]) => `${n} ${SEEDED[what as keyof typeof SEEDED]}${n === 1 ? '' : 's'}`);
  return `Seed ${file} applied: created ${created.join(', ')}.`;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the Switchboard server (API, dashboard, docs) in the foreground')
    .option('--port <port>', 'port to listen on; 0 picks a free one (env SWITCHBOARD_PORT, default 4700)')
    .option('--host <host>', 'address to bind (env SWITCHBOARD_HOST, default 127.0.0.1)')
    .option('--data-dir <dir>', 'folder for the database and attachments (env SWITCHBOARD_DATA_DIR)')
    .option(
      '--database-url <url>',
      'keep the data in this PostgreSQL database instead of SQLite in the data folder: ' +
        'postgres://user:password@host:port/database (env SWITCHBOARD_DATABASE_URL)',
    )
    .option(
      '--secret-key-file <file>',
      'file holding the secret the keys derive from, required with --database-url (env SWITCHBOARD_SECRET_KEY)',
    )
    .option(
      '--previous-secret-key-file <file>',
      'while rotating the secret key: file holding the key --secret-key-file replaces, until `switchboard status` ' +
        'says the rotation is done (env SWITCHBOARD_PREVIOUS_SECRET_KEY)',
    )
    .option(
      '--redis-url <url>',
      'Redis between several servers on one PostgreSQL database, the same on each: redis://host:port, ' +
        'rediss:// for TLS (env SWITCHBOARD_REDIS_URL)',
    )
    .option('--mode <mode>', 'deployment mode: local or production (env SWITCHBOARD_MODE, default local)')
    .option(
      '--allowed-origins <origins>',
      'comma-separated browser origins that may call the API cross-origin, or * (env SWITCHBOARD_ALLOWED_ORIGINS; ' +
        'local mode allows any origin on chat, attachment and telemetry routes anyway)',
    )
    .option(
      '--registration <policy>',
      'who may create an account: open, or first-only (the first account, then invited people) ' +
        '(env SWITCHBOARD_REGISTRATION; default open in local mode, first-only in production)',
    )
    .option(
      '--oidc-issuer <url>',
      'sign in with this OpenID Connect provider (its issuer URL) on the dashboard and with `switchboard login --sso`; ' +
        'register <public URL>/auth/sso/callback as the redirect URI there (env SWITCHBOARD_OIDC_ISSUER)',
    )
    .option('--oidc-client-id <id>', 'the client id the provider gave this server (env SWITCHBOARD_OIDC_CLIENT_ID)')
    .option(
      '--oidc-client-secret-file <file>',
      'file holding the client secret the provider gave this server (env SWITCHBOARD_OIDC_CLIENT_SECRET)',
    )
    .option(
      '--oidc-name <name>',
      'the provider’s name on the sign-in button (env SWITCHBOARD_OIDC_NAME, default its host)',
    )
    .option(
      '--oidc-allowed-domains <domains>',
      'comma-separated email domains that may sign in with the provider, e.g. example.com (env ' +
        'SWITCHBOARD_OIDC_ALLOWED_DOMAINS, default any verified address)',
    )
    .option(
      '--public-url <url>',
      'the address browsers reach this server at, e.g. https://switchboard.example.com: the redirect URI is made from ' +
        'it (env SWITCHBOARD_PUBLIC_URL, default the address each request came to)',
    )
    .option(
      '--no-password-sign-in',
      'with --oidc-issuer: sign in with the provider only; the password form and routes are gone ' +
        '(env SWITCHBOARD_PASSWORD_SIGN_IN=off)',
    )
    .option(
      '--key-rate-limit <per-minute>',
      'requests a minute per API key, 0 for no limit (env SWITCHBOARD_KEY_RATE_LIMIT; default 6000 in production, ' +
        'none in local mode)',
    )
    .option(
      '--trust-proxy <value>',
      'trust X-Forwarded-For/-Proto from a reverse proxy: true, a hop count, or addresses (env SWITCHBOARD_TRUST_PROXY)',
    )
    .option(
      '--max-connections <count>',
      'HTTP connections open at once, WebSockets not included (env SWITCHBOARD_MAX_CONNECTIONS, default 10000 or ' +
        'less to fit the open-file limit)',
    )
    .option(
      '--max-websockets <count>',
      'realtime and signaling WebSockets open at once; more are closed with 1013 (env SWITCHBOARD_MAX_WEBSOCKETS, ' +
        'default 10000 or less to fit the open-file limit)',
    )
    .option(
      '--max-websockets-per-environment <count>',
      'WebSockets open at once in one environment of a project (env SWITCHBOARD_MAX_WEBSOCKETS_PER_ENVIRONMENT; ' +
        'default all of --max-websockets in local mode, half in production)',
    )
    .option(
      '--allow-production-recording',
      'let production environments be recorded (`switchboard record start --environment production`); their ' +
        'traffic is your users’, secrets replaced (env SWITCHBOARD_ALLOW_PRODUCTION_RECORDING=true; default off)',
    )
    .option(
      '--import <file>',
      'restore an archive (from export or backup) into the data folder first; refused if the folder holds data',
    )
    .option('--replace', 'with --import: replace everything the data folder holds with the archive')
    .option('--export-on-exit <file>', 'on SIGINT or SIGTERM, stop, then write the data folder as an archive to <file>')
    .option(
      '--log-level <level>',
      'the least severe log lines written, one JSON object a line on stdout: fatal, error, warn, info, debug, trace ' +
        'or silent (env SWITCHBOARD_LOG_LEVEL, default info)',
    )
    .option(
      '--access-log <which>',
      'a log line per request (id, route, status, duration): all, errors (status 400 and up), off, or errors and a ' +
        'fraction such as 0.1 of the rest (env SWITCHBOARD_ACCESS_LOG, default all)',
    )
    .option(
      '--rtc-media <mode>',
      'where /v1/rtc media goes: mesh (peer to peer; the server relays signaling) or sfu (experimental: through a ' +
        'media process the server forks) (env SWITCHBOARD_RTC_MEDIA, default mesh)',
    )
    .option(
      '--metrics-port <port>',
      'serve Prometheus metrics at /metrics on this port, a listener of their own; 0 picks a free one ' +
        '(env SWITCHBOARD_METRICS_PORT; default off)',
    )
    .option(
      '--metrics-host <host>',
      'address the metrics listener binds (env SWITCHBOARD_METRICS_HOST, default 127.0.0.1)',
    )
    .option(
      '--rtc-udp-port <port>',
      'with --rtc-media sfu: the UDP port, on every interface, that carries all media of the server (of its first ' +
        'media process: see --rtc-media-processes); open it in the firewall for clients on other machines (env SWITCHBOARD_RTC_UDP_PORT, default 40100; 0 for any free one)',
    )
    .option(
      '--rtc-media-processes <count>',
      'with --rtc-media sfu: how many media processes at most, each started when a room first needs it, holding whole ' +
        'rooms on a UDP port of its own (--rtc-udp-port, then the next ones); more than 1 spreads media over cores ' +
        '(env SWITCHBOARD_RTC_MEDIA_PROCESSES, default 1)',
    )
    .option(
      '--rtc-announce-address <addresses>',
      'with --rtc-media sfu: the IPv4 address (or several, comma-separated) clients reach the media port at, announced ' +
        "instead of the interfaces' own: for a server behind NAT or in a container (env " +
        "SWITCHBOARD_RTC_ANNOUNCE_ADDRESS; default the interfaces' addresses and 127.0.0.1)",
    )
    .option(
      '--rtc-ice-servers <urls>',
      "STUN and TURN servers for the clients' peer connections, comma-separated stun:, turn: or turns: URLs, given " +
        'to them when they join (env SWITCHBOARD_RTC_ICE_SERVERS; default none: nothing on the internet is asked)',
    )
    .option(
      '--rtc-turn-username <name>',
      'the username of the TURN servers in --rtc-ice-servers (env SWITCHBOARD_RTC_TURN_USERNAME)',
    )
    .option(
      '--rtc-turn-credential-file <file>',
      "a file holding the TURN servers' credential (or env SWITCHBOARD_RTC_TURN_CREDENTIAL; never on the command line)",
    )
    .option(
      '--seed <file>',
      'create what this seed file declares if the data folder is empty (env SWITCHBOARD_SEED; `switchboard seed init` ' +
        'writes an example)',
    )
    .action(async (flags: ServeFlags) => {
      // Loaded here, not at the top: the other commands are API clients and start faster without the server.
      // The seed file's schema and the archive code load only when asked for: they are a tenth of start-up.
      const [{ startServer }, { resolveServeSettings }, { readVersion }, { default: pino }] = await Promise.all([
        import('../server/start-server.js'),
        import('./config.js'),
        import('../server/version.js'),
        import('pino'),
      ]);
      const { importFile, replace, exportOnExit, seedFile, logLevel, ...settings } = resolveServeSettings(flags);
      // Every line of a running server is one JSON object on stdout, for journald, a container's log driver or a
      // collector to parse; what a person reads is its `msg`.
      const logger = pino({ level: logLevel });
      const switchboardVersion = readVersion();
      if (exportOnExit && !existsSync(dirname(resolve(exportOnExit))))
        throw new UsageError(`--export-on-exit: the folder of ${exportOnExit} does not exist`);
      // Read and checked before the import changes anything.
      const seed = seedFile
        ? (await import('../server/seeds/parse.js')).parseSeed(readInput(seedFile, 'seed file'), seedFile)
        : undefined;
      if (importFile) readInput(importFile, 'archive');
      if (importFile && !settings.databaseUrl) {
        const { importArchive } = await import('../server/data-archive/index.js');
        const manifest = await importArchive(importFile, settings.dataDir, {
          replace: replace === true,
          switchboardVersion,
        });
        logger.info(
          `Imported ${importFile} (Switchboard ${manifest.switchboardVersion}, ${manifest.createdAt}) into ${settings.dataDir}`,
        );
      }
      const server = await startServer({
        ...settings,
        logger,
        seed,
        ...(importFile && settings.databaseUrl && { importArchive: { file: importFile, replace: replace === true } }),
      });
      if (importFile && server.imported) {
        logger.info(
          `Imported ${importFile} (Switchboard ${server.imported.switchboardVersion}, ${server.imported.createdAt}) ` +
            `into ${describePostgresUrl(settings.databaseUrl ?? '')}`,
        );
        if (server.imported.replaced.size > 0) {
          const { describeReplaced } = await import('../db/holdable-text.js');
          logger.info(`${describeReplaced(server.imported.replaced)}.`);
        }
      }
      if (seedFile && server.seed) logger.info(describeSeed(seedFile, server.seed));
      const stop = async (signal: string) => {
        process.off('SIGINT', onSigint);
        process.off('SIGTERM', onSigterm);
        logger.info({ signal }, `Received ${signal}, shutting down…`);
        await server.close();
        process.exitCode = 0;
        if (!exportOnExit) return;
        try {
          const { exportDataDir } = await import('../server/data-archive/index.js');
          await exportDataDir(settings.dataDir, exportOnExit, { switchboardVersion, createdAt: new Date() });
          logger.info(`Exported the data folder to ${exportOnExit}`);
        } catch (err) {
          logger.error({ err }, `the export to ${exportOnExit} failed: ${(err as Error).message}`);
          process.exitCode = 1;
        }
      };
      const onSigint = () => void stop('SIGINT');
      const onSigterm = () => void stop('SIGTERM');
      process.on('SIGINT', onSigint);
      process.on('SIGTERM', onSigterm);
      // Printed once the signals are handled: whoever waits for this line may stop the server at once.
      if (server.metricsUrl) logger.info({ metricsUrl: server.metricsUrl }, `Metrics at ${server.metricsUrl}`);
      logger.info(
        { url: server.url, version: switchboardVersion, dataDir: settings.dataDir },
        `Switchboard listening on ${server.url}`,
      );
    });
}
