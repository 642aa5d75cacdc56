import type { Command } from 'commander';
import type { Environment } from '../../sdk/index.js';
import { environmentOption, projectOption } from '../arguments.js';
import { action } from '../context.js';
import type { CliIo } from '../io.js';
import { formatTime } from '../output.js';

/** Printed with every new key (spec 4.3): the secret is shown once. */
export const KEY_SHOWN_ONCE =
  'Warning: this key is not shown again. Store it now (e.g. in a .env file or a secret manager).';
/** Printed with a new production key only: development and staging keys may sit in a test app. */
export const PRODUCTION_KEY_WARNING =
  'Warning: a production key stays server-side: never put it in a browser, an app or a repository.';

export function registerKeyCommands(program: Command, io: CliIo): void {
  const keys = program.command('keys').description('Create, list and revoke API keys (one environment each)');

  keys
    .command('create')
    .description('Create an API key and print it, this once')
    .requiredOption('--name <name>', 'a name to recognise the key by')
    .addOption(environmentOption('the key’s environment (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: { name: string; environment?: Environment; project?: string }) => {
        const projectId = await ctx.projectId(flags.project);
        const created = await ctx
          .client()
          .keys.create(projectId, { name: flags.name, environment: flags.environment ?? 'development' });
        ctx.out.result(created, () =>
          [
            `Created ${created.environment} API key "${created.name}" (${created.id}):`,
            '',
            `  ${created.key}`,
            '',
          ].join('\n'),
        );
        ctx.out.note(KEY_SHOWN_ONCE);
        if (created.environment === 'production') ctx.out.note(PRODUCTION_KEY_WARNING);
      }),
    );

  keys
    .command('list')
    .description('List the active keys of one environment (never their secrets)')
    .addOption(environmentOption('the environment to list (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: { environment?: Environment; project?: string }) => {
        const environment = flags.environment ?? 'development';
        const list = await ctx.client().keys.list(await ctx.projectId(flags.project), { environment });
        ctx.out.table(
          list,
          list.data,
          [
            { header: 'id', value: (k) => k.id },
            { header: 'name', value: (k) => k.name },
            { header: 'environment', value: (k) => k.environment },
            { header: 'created', value: (k) => formatTime(k.createdAt) },
            { header: 'last used', value: (k) => formatTime(k.lastUsedAt) },
          ],
          `No active ${environment} keys.`,
        );
      }),
    );

  keys
    .command('revoke')
    .description('Revoke a key: it stops working at once')
    .argument('<keyId>', 'the key’s id (key_…)')
    .addOption(environmentOption('the environment the key belongs to (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, keyId: string, flags: { environment?: Environment; project?: string }) => {
        const environment = flags.environment ?? 'development';
        await ctx.client().keys.revoke(await ctx.projectId(flags.project), keyId, { environment });
        ctx.out.line(`Revoked ${environment} API key ${keyId}.`);
      }),
    );
}
