import type { Command } from 'commander';
import type { Environment } from '../../sdk/index.js';
import { cursorOption, environmentOption, limitOption, projectOption } from '../arguments.js';
import { action } from '../context.js';
import type { CliIo } from '../io.js';
import { formatTable, formatTime } from '../output.js';

interface AuditFlags {
  limit?: number;
  cursor?: string;
  action?: string;
  environment?: Environment;
  project?: string;
}

export function registerAuditCommand(program: Command, io: CliIo): void {
  program
    .command('audit')
    .description('Read the project’s audit log, newest first')
    .addOption(limitOption('entries'))
    .addOption(cursorOption())
    .option('--action <action>', 'only entries of this action, e.g. member.added')
    .addOption(environmentOption('only entries about this environment (default: all)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: AuditFlags) => {
        const { project, ...query } = flags;
        const page = await ctx.client().audit.list(await ctx.projectId(project), query);
        ctx.out.result(page, () => {
          if (!page.data.length) return 'No audit log entries.';
          const table = formatTable(page.data, [
            { header: 'time', value: (e) => formatTime(e.createdAt) },
            { header: 'action', value: (e) => e.action },
            { header: 'actor', value: (e) => e.actor.email ?? e.actor.id ?? e.actor.type },
            { header: 'target', value: (e) => `${e.target.type} ${e.target.id}` },
            { header: 'environment', value: (e) => e.environment ?? '' },
          ]);
          return page.nextCursor ? `${table}\n\nMore entries: add --cursor ${page.nextCursor}` : table;
        });
      }),
    );
}
