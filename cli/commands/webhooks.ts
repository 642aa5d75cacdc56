import { type Command, Option } from 'commander';
import type { Environment, UpdateWebhookInput, WebhookEndpoint, WebhookEventType } from '../../sdk/index.js';
import { cursorOption, environmentOption, limitOption, parseEvents, projectOption } from '../arguments.js';
import { action } from '../context.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { formatTime } from '../output.js';
import { registerWebhookListenCommand } from './webhooks-listen.js';

export const SECRET_WARNING =
  'Warning: this signing secret is not shown again. Store it now with the code that verifies the webhooks.';

const describeEvents = (endpoint: Pick<WebhookEndpoint, 'events'>) =>
  `Events: ${endpoint.events.length ? endpoint.events.join(', ') : 'every type'}`;

interface UpdateFlags {
  endpointUrl?: string;
  events?: string[];
  allEvents?: boolean;
  enable?: boolean;
  disable?: boolean;
  environment?: Environment;
  project?: string;
}

/** The PATCH body the flags ask for; none of them is a usage error. */
function updateOf(flags: UpdateFlags): UpdateWebhookInput {
  const input: UpdateWebhookInput = {};
  if (flags.endpointUrl !== undefined) input.url = flags.endpointUrl;
  if (flags.events) input.events = flags.events as WebhookEventType[];
  if (flags.allEvents) input.events = [];
  if (flags.enable || flags.disable) input.enabled = flags.enable === true;
  if (Object.keys(input).length === 0)
    throw new UsageError('nothing to update: give --endpoint-url, --events, --all-events, --enable or --disable');
  return input;
}

/**
 * The endpoint of `webhooks add`: the argument or --endpoint-url. `--url` is the server's wherever it is written (every
 * command takes it), so `webhooks add --url <endpoint>` would talk to the endpoint as if it were the server: refused,
 * saying how to write it.
 */
function endpointUrl(argument: string | undefined, flag: string | undefined, serverUrl: string | undefined): string {
  if (argument !== undefined && flag !== undefined)
    throw new UsageError('give the endpoint’s URL once: as the argument or as --endpoint-url, not both');
  const url = argument ?? flag;
  if (url !== undefined) return url;
  if (serverUrl !== undefined)
    throw new UsageError(
      `no endpoint URL given: --url (here ${serverUrl}) names the server to talk to, wherever it is written; give ` +
        'the endpoint as the argument, `switchboard webhooks add <url>`, or with --endpoint-url <url>',
    );
  throw new UsageError('give the endpoint’s URL: `switchboard webhooks add <url>` (or --endpoint-url <url>)');
}

export function registerWebhookCommands(program: Command, io: CliIo): void {
  const webhooks = program
    .command('webhooks')
    .description('Register webhook endpoints, inspect and resend deliveries, forward events to a local app');

  webhooks
    .command('add')
    .description('Register an endpoint and print its signing secret, this once')
    .argument('[url]', 'where deliveries are POSTed (or --endpoint-url; --url names the server)')
    .option('--endpoint-url <url>', 'the same as the argument, named as `webhooks update` names it')
    .addOption(environmentOption('whose events it receives (default development)'))
    .option('--events <types>', 'event types, separated by commas (default: every type)', parseEvents)
    .addOption(projectOption())
    .action(
      action(
        io,
        async (
          ctx,
          argument: string | undefined,
          flags: { endpointUrl?: string; environment?: Environment; events?: string[]; project?: string },
        ) => {
          const url = endpointUrl(argument, flags.endpointUrl, ctx.options.url);
          const environment = flags.environment ?? 'development';
          const created = await ctx.client().webhooks.register(await ctx.projectId(flags.project), {
            url,
            environment,
            events: (flags.events ?? []) as WebhookEventType[],
          });
          ctx.out.result(created, () =>
            [
              `Registered ${environment} webhook ${created.id} → ${created.url}`,
              describeEvents(created),
              'Signing secret:',
              '',
              `  ${created.secret}`,
              '',
            ].join('\n'),
          );
          ctx.out.note(SECRET_WARNING);
        },
      ),
    );

  webhooks
    .command('list')
    .description('List the endpoints of one environment (never their secrets)')
    .addOption(environmentOption('the environment to list (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: { environment?: Environment; project?: string }) => {
        const environment = flags.environment ?? 'development';
        const list = await ctx.client().webhooks.list(await ctx.projectId(flags.project), { environment });
        ctx.out.table(
          list,
          list.data,
          [
            { header: 'id', value: (w) => w.id },
            { header: 'url', value: (w) => w.url },
            { header: 'events', value: (w) => (w.events.length ? w.events.join(',') : '*') },
            { header: 'enabled', value: (w) => (w.enabled ? 'yes' : 'no') },
            { header: 'failures', value: (w) => String(w.consecutiveFailures) },
            { header: 'created', value: (w) => formatTime(w.createdAt) },
          ],
          `No ${environment} webhooks.`,
        );
      }),
    );

  webhooks
    .command('update')
    .description('Change an endpoint’s URL or events, or disable and re-enable it')
    .argument('<webhookId>', 'the endpoint’s id (wh_…)')
    .option('--endpoint-url <url>', 'send deliveries here from now on (--url names the server)')
    .addOption(
      new Option('--events <types>', 'event types, separated by commas').argParser(parseEvents).conflicts('allEvents'),
    )
    .option('--all-events', 'receive every event type')
    .addOption(new Option('--enable', 're-enable it; also clears its count of failures').conflicts('disable'))
    .option('--disable', 'stop deliveries to it; pending ones fail')
    .addOption(environmentOption('the environment of the endpoint (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, webhookId: string, flags: UpdateFlags) => {
        const input = updateOf(flags);
        const environment = flags.environment ?? 'development';
        const updated = await ctx
          .client()
          .webhooks.update(await ctx.projectId(flags.project), webhookId, input, { environment });
        ctx.out.result(updated, () =>
          [
            `Updated ${environment} webhook ${updated.id} → ${updated.url}`,
            describeEvents(updated),
            `Enabled: ${updated.enabled ? 'yes' : 'no'}`,
          ].join('\n'),
        );
      }),
    );

  webhooks
    .command('delete')
    .description('Delete an endpoint and its delivery log')
    .argument('<webhookId>', 'the endpoint’s id (wh_…)')
    .addOption(environmentOption('the environment of the endpoint (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, webhookId: string, flags: { environment?: Environment; project?: string }) => {
        const environment = flags.environment ?? 'development';
        await ctx.client().webhooks.delete(await ctx.projectId(flags.project), webhookId, { environment });
        ctx.out.line(`Deleted ${environment} webhook ${webhookId}.`);
      }),
    );

  webhooks
    .command('deliveries')
    .description('List the deliveries of an endpoint, newest first')
    .argument('<webhookId>', 'the endpoint’s id (wh_…)')
    .addOption(environmentOption('the environment of the endpoint (default development)'))
    .addOption(limitOption('deliveries'))
    .addOption(cursorOption())
    .addOption(projectOption())
    .action(
      action(
        io,
        async (
          ctx,
          webhookId: string,
          flags: { environment?: Environment; limit?: number; cursor?: string; project?: string },
        ) => {
          const environment = flags.environment ?? 'development';
          const page = await ctx.client().webhooks.deliveries(await ctx.projectId(flags.project), webhookId, {
            environment,
            limit: flags.limit,
            cursor: flags.cursor,
          });
          ctx.out.page(
            page,
            [
              { header: 'id', value: (d) => d.id },
              { header: 'event', value: (d) => d.eventType },
              { header: 'status', value: (d) => d.status },
              { header: 'attempts', value: (d) => String(d.attempts) },
              { header: 'last code', value: (d) => (d.lastStatusCode === null ? '-' : String(d.lastStatusCode)) },
              { header: 'created', value: (d) => formatTime(d.createdAt) },
            ],
            `No deliveries for ${webhookId}.`,
          );
        },
      ),
    );

  webhooks
    .command('resend')
    .description('Deliver an event again (same event id)')
    .argument('<webhookId>', 'the endpoint’s id (wh_…)')
    .argument('<deliveryId>', 'the delivery’s id (whd_…)')
    .addOption(environmentOption('the environment of the endpoint (default development)'))
    .addOption(projectOption())
    .action(
      action(
        io,
        async (ctx, webhookId: string, deliveryId: string, flags: { environment?: Environment; project?: string }) => {
          const environment = flags.environment ?? 'development';
          const delivery = await ctx
            .client()
            .webhooks.resend(await ctx.projectId(flags.project), webhookId, deliveryId, { environment });
          ctx.out.result(delivery, () => `Queued ${delivery.eventType} ${delivery.eventId} again (${delivery.id}).`);
        },
      ),
    );

  webhooks
    .command('test')
    .description('Send a sample event to an endpoint')
    .argument('<webhookId>', 'the endpoint’s id (wh_…)')
    .requiredOption('--type <event>', 'the event type, e.g. message.created')
    .addOption(environmentOption('the environment of the endpoint (default development)'))
    .addOption(projectOption())
    .action(
      action(
        io,
        async (ctx, webhookId: string, flags: { type: string; environment?: Environment; project?: string }) => {
          const environment = flags.environment ?? 'development';
          const delivery = await ctx
            .client()
            .webhooks.test(await ctx.projectId(flags.project), webhookId, flags.type as WebhookEventType, {
              environment,
            });
          ctx.out.result(delivery, () => `Queued a test ${delivery.eventType} event (${delivery.id}).`);
        },
      ),
    );

  registerWebhookListenCommand(webhooks, io);
}
