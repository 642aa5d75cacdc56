import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Connection, Environment, ErrorRecord } from '../../sdk/index.js';
import { cursorOption, environmentOption, limitOption, projectOption } from '../arguments.js';
import { action } from '../context.js';
import type { CliIo } from '../io.js';
import { formatBytes, formatDuration, formatFields, formatTime } from '../output.js';

interface ScopeFlags {
  environment?: Environment;
  project?: string;
}
type PageFlags = ScopeFlags & { limit?: number; cursor?: string };

const CONNECTION_KINDS = ['signaling', 'realtime'] as const satisfies readonly Connection['kind'][];

const closeOf = (c: Connection) =>
  [c.closeCode ?? '', c.closeReason ? `(${c.closeReason})` : ''].join(' ').trim() || '-';

const connectionFields = (c: Connection) =>
  formatFields([
    ['Id', c.id],
    ['Kind', c.kind],
    ['Environment', c.environment],
    ['Identity', c.identity],
    ['Room', c.roomId ?? '-'],
    ['Connected', formatTime(c.connectedAt)],
    ['Disconnected', c.disconnectedAt === null ? 'still open' : formatTime(c.disconnectedAt)],
    ['Close', closeOf(c)],
    ['Node', c.nodeId ?? '-'],
  ]);

const errorFields = (e: ErrorRecord) =>
  formatFields([
    ['Id', e.id],
    ['Request', e.requestId],
    ['Time', formatTime(e.occurredAt)],
    ['Environment', e.environment],
    ['Status', String(e.status)],
    ['Code', e.code],
    ['Message', e.message],
    ['Route', `${e.method} ${e.route}`],
    ['Credential', e.credential],
  ]);

function parseMonth(value: string): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(value)) throw new InvalidArgumentError('Give a month as YYYY-MM, e.g. 2026-01.');
  return value;
}

/** `connections list|show`, `errors list|show`, `usage` and `diagnostics`: what runs in one environment. */
export function registerObservabilityCommands(program: Command, io: CliIo): void {
  const connections = program
    .command('connections')
    .description('Signaling and realtime connections of one environment (the connection log)');

  connections
    .command('list')
    .description('List connections, newest first, open ones included')
    .addOption(new Option('--kind <kind>', 'only signaling or only realtime connections').choices(CONNECTION_KINDS))
    .addOption(environmentOption('the environment to list (default development)'))
    .addOption(limitOption('connections'))
    .addOption(cursorOption())
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: PageFlags & { kind?: (typeof CONNECTION_KINDS)[number] }) => {
        const { project, ...query } = flags;
        const environment = query.environment ?? 'development';
        const page = await ctx.client().observability.connections(await ctx.projectId(project), query);
        ctx.out.page(
          page,
          [
            { header: 'id', value: (c) => c.id },
            { header: 'kind', value: (c) => c.kind },
            { header: 'identity', value: (c) => c.identity },
            { header: 'room', value: (c) => c.roomId ?? '-' },
            { header: 'connected', value: (c) => formatTime(c.connectedAt) },
            {
              header: 'disconnected',
              value: (c) => (c.disconnectedAt === null ? 'open' : formatTime(c.disconnectedAt)),
            },
            { header: 'close', value: closeOf },
          ],
          `No ${environment} connections.`,
        );
      }),
    );

  connections
    .command('show')
    .description('Show one connection')
    .argument('<connectionId>', 'the connection’s id (conn_…)')
    .addOption(environmentOption('the environment of the connection (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, connectionId: string, { project, environment }: ScopeFlags) => {
        const connection = await ctx
          .client()
          .observability.connection(await ctx.projectId(project), connectionId, { environment });
        ctx.out.result(connection, () => connectionFields(connection));
      }),
    );

  const errors = program
    .command('errors')
    .description('Error answers of runtime routes (API key, chat or RTC credential) in one environment');

  errors
    .command('list')
    .description('List error records, newest first')
    .addOption(environmentOption('the environment to list (default development)'))
    .addOption(limitOption('errors'))
    .addOption(cursorOption())
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: PageFlags) => {
        const { project, ...query } = flags;
        const environment = query.environment ?? 'development';
        const page = await ctx.client().observability.errors(await ctx.projectId(project), query);
        ctx.out.page(
          page,
          [
            { header: 'id', value: (e) => e.id },
            { header: 'time', value: (e) => formatTime(e.occurredAt) },
            { header: 'status', value: (e) => String(e.status) },
            { header: 'code', value: (e) => e.code },
            { header: 'route', value: (e) => `${e.method} ${e.route}` },
            { header: 'credential', value: (e) => e.credential },
          ],
          `No ${environment} errors.`,
        );
      }),
    );

  errors
    .command('show')
    .description('Show one error record, with its message and request id')
    .argument('<errorId>', 'the record’s id (err_…)')
    .addOption(environmentOption('the environment of the record (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, errorId: string, { project, environment }: ScopeFlags) => {
        const record = await ctx.client().observability.error(await ctx.projectId(project), errorId, { environment });
        ctx.out.result(record, () => errorFields(record));
      }),
    );

  program
    .command('usage')
    .description('Show one calendar month’s usage of an environment: messages, connection minutes, deliveries, storage')
    .option('--month <YYYY-MM>', 'the month, in UTC (default the current one)', parseMonth)
    .addOption(environmentOption('the environment (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, { project, ...query }: ScopeFlags & { month?: string }) => {
        const usage = await ctx.client().observability.usage(await ctx.projectId(project), query);
        ctx.out.result(usage, () =>
          formatFields([
            ['Environment', usage.environment],
            ['Month', `${usage.period.month} (UTC)`],
            ['Messages', String(usage.messages)],
            ['Connection minutes', String(usage.connectionMinutes)],
            ['Webhook attempts', String(usage.webhookDeliveries)],
            ['Storage', formatBytes(usage.storageBytes)],
          ]),
        );
      }),
    );

  program
    .command('diagnostics')
    .description('Show the server’s health and this environment’s: webhook queue, open connections, error rate')
    .addOption(environmentOption('the environment (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, { project, environment }: ScopeFlags) => {
        const d = await ctx.client().observability.diagnostics(await ctx.projectId(project), { environment });
        const oldest = d.webhookQueue.oldestPendingAt;
        ctx.out.result(d, () =>
          formatFields([
            ['Server version', d.version],
            ['Mode', d.mode],
            ['Uptime', formatDuration(d.uptimeSeconds)],
            ['Database', formatBytes(d.database.bytes)],
            ['Environment', d.environment],
            [
              'Webhook queue',
              `${d.webhookQueue.pending} pending${oldest ? `, oldest since ${formatTime(oldest)}` : ''}`,
            ],
            ['Open connections', `${d.connections.signaling} signaling, ${d.connections.realtime} realtime`],
            ['Error rate', `${(d.recentErrorRate * 100).toFixed(1)}% of runtime requests, last 5 minutes`],
          ]),
        );
      }),
    );
}
