import type { Command } from 'commander';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the Switchboard server (API, dashboard, docs) in the foreground')
    .option('--port <port>', 'port to listen on; 0 picks a free one (env SWITCHBOARD_PORT, default 4700)')
    .option('--host <host>', 'address to bind (env SWITCHBOARD_HOST, default 127.0.0.1)')
    .option('--data-dir <dir>', 'folder for the database and attachments (env SWITCHBOARD_DATA_DIR)')
    .option('--mode <mode>', 'deployment mode: local or production (env SWITCHBOARD_MODE, default local)')
    .action(async (flags: { port?: string; host?: string; dataDir?: string; mode?: string }) => {
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
