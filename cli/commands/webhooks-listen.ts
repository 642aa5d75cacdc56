import type { Command } from 'commander';
import type { Environment } from '../../sdk/index.js';
import { environmentOption, parseEvents, projectOption } from '../arguments.js';
import { action } from '../context.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';

/**
 * `--forward-to` as a URL to POST to. Without a scheme (`localhost:3000/webhooks`, which URL parsing would take as a
 * scheme `localhost:`) it is http://, as curl assumes, and `assumed` says so; any scheme but http and https is refused
 * here, before the temporary endpoint exists, rather than on every event.
 */
export function forwardTarget(value: string): { url: string; assumed: boolean } {
  const assumed = !/^[a-z][a-z0-9+.-]*:\/\//i.test(value);
  const text = assumed ? `http://${value}` : value;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname)
    throw new UsageError(
      `--forward-to must be an http:// or https:// URL such as http://localhost:3000/webhooks, not "${value}"`,
    );
  return { url: url.href, assumed };
}

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
          const target = forwardTarget(flags.forwardTo);
          if (target.assumed) ctx.out.note(`--forward-to has no scheme: forwarding to ${target.url}.`);
          // Loaded when run: its HTTP server and signing (node:http, node:crypto) would cost every other command's
          // start-up ≈4 ms.
          const { listen } = await import('./webhook-forwarder.js');
          await listen(ctx, { ...flags, forwardTo: target.url, environment: flags.environment ?? 'development' });
        },
      ),
    );
}
