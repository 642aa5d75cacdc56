import { createWriteStream, existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { AdminClient } from '../../sdk/index.js';
import { ADMIN_TOKEN_FILE } from '../../server/backups/admin-token-file.js';
import { readVersion } from '../../server/version.js';
import { adminToken } from '../admin-token.js';
import { action } from '../context.js';
import { CommandError } from '../errors.js';
import type { CliIo } from '../io.js';
import { formatBytes } from '../output.js';
import { exampleSeed } from '../seed-example.js';
import { resolveDataDir } from '../user-folders.js';

const dataDirOption = '--data-dir <dir>';

export function registerDataCommands(program: Command, io: CliIo): void {
  const dataDirOf = (flag: string | undefined) => resolveDataDir(flag, io.env, io.platform);

  program
    .command('backup')
    .description(
      'Download a consistent backup of a running server (database, webhook secrets key, attachments) as one archive',
    )
    .argument('<file>', 'where to write the archive (a .tar.gz)')
    .option(
      dataDirOption,
      `the server's data folder, to read its ${ADMIN_TOKEN_FILE} from (env SWITCHBOARD_DATA_DIR; ` +
        'or give the token itself in SWITCHBOARD_ADMIN_TOKEN)',
    )
    .action(
      action(io, async (ctx, file: string, flags: { dataDir?: string }) => {
        const client = new AdminClient({ baseUrl: ctx.url, adminToken: adminToken(io, dataDirOf(flags.dataDir)) });
        const body = await client.backup();
        // Written aside and renamed once complete: a cut download never passes for a backup.
        const temporary = `${file}.${process.pid}.part`;
        try {
          await pipeline(Readable.fromWeb(body as never), createWriteStream(temporary, { mode: 0o600 }));
          renameSync(temporary, file);
        } catch (err) {
          rmSync(temporary, { force: true });
          throw new CommandError(`the backup download from ${ctx.url} broke off: ${(err as Error).message}`);
        }
        const { size } = statSync(file);
        ctx.out.result({ file, bytes: size }, () => `Backed up ${ctx.url} to ${file} (${formatBytes(size)}).`);
      }),
    );

  program
    .command('export')
    .description('Write the data folder of a stopped server as an archive (a running one: use `switchboard backup`)')
    .argument('<file>', 'where to write the archive (a .tar.gz)')
    .option(dataDirOption, 'the data folder (env SWITCHBOARD_DATA_DIR, default the user data folder)')
    .action(
      action(io, async (ctx, file: string, flags: { dataDir?: string }) => {
        const dataDir = dataDirOf(flags.dataDir);
        // Loaded here: the database layer is not needed by the API commands and slows their start.
        const [{ exportDataDir }, { DataDirInUseError }] = await Promise.all([
          import('../../server/data-archive/index.js'),
          import('../../db/data-dir-lock.js'),
        ]);
        try {
          const manifest = await exportDataDir(dataDir, file, {
            switchboardVersion: readVersion(),
            createdAt: new Date(),
          });
          const bytes = manifest.entries.reduce((sum, entry) => sum + entry.bytes, 0);
          ctx.out.result(
            manifest,
            () => `Exported ${dataDir} to ${file} (${manifest.entries.length} files, ${formatBytes(bytes)}).`,
          );
        } catch (err) {
          if (err instanceof DataDirInUseError)
            throw new CommandError(
              `a running server is using ${dataDir}; back it up through the server with \`switchboard backup ${file}\`, or stop it first`,
            );
          throw err;
        }
      }),
    );

  program
    .command('seed')
    .description('Seed files: what `serve --seed` creates on an empty data folder')
    .command('init')
    .description('Write a commented example seed file')
    .argument('[file]', 'where to write it', 'switchboard.seed.json')
    .option('--force', 'overwrite the file if it exists')
    .action(
      action(io, async (ctx, file: string, flags: { force?: boolean }) => {
        if (existsSync(file) && !flags.force) throw new CommandError(`${file} exists; pass --force to overwrite it`);
        writeFileSync(file, exampleSeed());
        ctx.out.result({ file }, () => `Wrote ${file}. Start with it: switchboard serve --seed ${file}`);
      }),
    );
}
