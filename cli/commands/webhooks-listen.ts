import type { Command } from 'commander';
import type { Environment } from '../../sdk/index.js';
import { environmentOption, parseEvents, projectOption } from '../arguments.js';
import { action } from '../context.js';
import type { CliIo } from '../io.js';

export function registerWebhookListenCommand(webhooks: Command, io: CliIo): void {
  webhooks
    .command('listen')
    .description('Show deliveries live and forward each event, signed, to a local URL (until Ctrl-C)')
    .requiredOption('--forward-to <url>', 'where to POST each event, e.g. http://localhost:3000/webhooks')
    .addOption(environmentOption('whose events to receive (default development)'))
    .option('--events <types>', 'event types, separated by commas (default: every type)', parseEvents)
    .addOption(projectOption())
    .action(
      action(
        io,
        async (ctx, flags: { forwardTo: string; environment?: Environment; events?: string[]; project?: string }) => {
          // Loaded when run: its HTTP server and signing (node:http, node:crypto) would cost every other command's
          // start-up ≈4 ms.
          const { listen } = await import('./webhook-forwarder.js');
          await listen(ctx, { ...flags, environment: flags.environment ?? 'development' });
        },
      ),
    );
}
