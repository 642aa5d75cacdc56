import type { Command } from 'commander';
import type { ServeFlags } from './config.js';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the Switchboard server (API, dashboard, docs) in the foreground')
    .option('--port <port>', 'port to listen on; 0 picks a free one (env SWITCHBOARD_PORT, default 4700)')
    .option('--host <host>', 'address to bind (env SWITCHBOARD_HOST, default 127.0.0.1)')
    .option('--data-dir <dir>', 'folder for the database and attachments (env SWITCHBOARD_DATA_DIR)')
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
      'connections open at once, sockets included (env SWITCHBOARD_MAX_CONNECTIONS, default 10000)',
    )
    .action(async (flags: ServeFlags) => {
      // Loaded here, not at the top: the other commands are API clients and start faster without the server.
      const [{ startServer }, { resolveServeSettings }] = await Promise.all([
        import('../server/index.js'),
        import('./config.js'),
      ]);
      const settings = resolveServeSettings(flags);
      const server = await startServer(settings);
      console.log(`Switchboard listening on ${server.url}`);
      const stop = async (signal: string) => {
        process.off('SIGINT', onSigint);
        process.off('SIGTERM', onSigterm);
        console.log(`Received ${signal}, shutting down…`);
        await server.close();
        process.exitCode = 0;
      };
      const onSigint = () => void stop('SIGINT');
      const onSigterm = () => void stop('SIGTERM');
      process.on('SIGINT', onSigint);
      process.on('SIGTERM', onSigterm);
    });
}
