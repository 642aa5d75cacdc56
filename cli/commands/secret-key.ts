import type { Command } from 'commander';
import { action } from '../context.js';
import { CommandError } from '../errors.js';
import type { CliIo } from '../io.js';
import { resolveDataDir } from '../user-folders.js';

/**
 * What a new key is made of: as `openssl rand -base64 48`, 64 characters (the server asks for 32 at least). Node's
 * crypto is loaded here, not at the top: the API commands start without it (test/unit/start-up-imports.test.ts).
 */
const newSecretKey = async () => (await import('node:crypto')).randomBytes(48).toString('base64');

/** The steps of a rotation on PostgreSQL (docs/deployment.md, "Rotating the secret key"). */
const POSTGRES_STEPS = [
  'To rotate a server on PostgreSQL to this key:',
  '  1. Restart every node with it as the secret key and the current key as the previous one',
  '     (--secret-key-file NEW --previous-secret-key-file OLD, or SWITCHBOARD_SECRET_KEY and',
  '     SWITCHBOARD_PREVIOUS_SECRET_KEY). Nothing changes until every node holds both.',
  '  2. Wait until `switchboard status` says "rotation done" (each node logs it too).',
  '  3. Restart every node with the new key alone. Keep the old one as long as sessions and chat tokens',
  '     it signed should last (up to 30 days); nothing stored needs it any more.',
].join('\n');

export function registerSecretKeyCommands(program: Command, io: CliIo): void {
  const command = program
    .command('secret-key')
    .description("Make a new secret key, or rotate a data folder's key (see docs/deployment.md)");

  command
    .command('generate')
    .description('Print a new secret key for SWITCHBOARD_SECRET_KEY or --secret-key-file, and how to rotate to it')
    .action(
      action(io, async (ctx) => {
        const key = await newSecretKey();
        ctx.out.result({ secretKey: key }, () => key);
        ctx.out.note(POSTGRES_STEPS);
      }),
    );

  command
    .command('rotate')
    .description(
      "Give a stopped server's data folder (SQLite) a new webhook-secrets key; its next start seals every secret again",
    )
    .option('--data-dir <dir>', 'the data folder (env SWITCHBOARD_DATA_DIR, default the user data folder)')
    .action(
      action(io, async (ctx, flags: { dataDir?: string }) => {
        const dataDir = resolveDataDir(flags.dataDir, io.env, io.platform);
        // Loaded here: the database layer is not needed by the API commands and slows their start.
        const [{ rotateDataDirKey, RotationRefusedError }, box] = await Promise.all([
          import('../../server/secret-key-rotation/rotate-data-dir.js'),
          import('../../server/webhooks/secret-box.js'),
        ]);
        try {
          rotateDataDirKey(dataDir);
        } catch (err) {
          if (err instanceof RotationRefusedError) throw new CommandError(err.message);
          throw err;
        }
        ctx.out.result({ dataDir, key: box.SECRET_KEY_FILE, previous: box.PREVIOUS_SECRET_KEY_FILE }, () =>
          [
            `Moved ${box.SECRET_KEY_FILE} to ${box.PREVIOUS_SECRET_KEY_FILE} and wrote a new ${box.SECRET_KEY_FILE}.`,
            'Start the server: it seals every webhook secret again with the new key while it serves, then deletes',
            `${box.PREVIOUS_SECRET_KEY_FILE} and logs "secret key rotation done" (\`switchboard status\` says so too).`,
          ].join('\n'),
        );
      }),
    );
}
