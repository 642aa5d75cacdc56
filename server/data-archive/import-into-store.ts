import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, getTableName } from 'drizzle-orm';
import { type CopyReport, copySqliteInto, tablesInDependencyOrder } from '../../db/copy-tables.js';
import { ATTACHMENT_CHUNK_BYTES, attachmentChunks, attachments } from '../../db/schema/attachments.js';
import { serverSecrets } from '../../db/schema/server-secrets.js';
import { webhookEndpoints } from '../../db/schema/webhooks.js';
import type { Queries, Store } from '../../db/store.js';
import { appDatabaseFiles } from '../app-files/database-files.js';
import type { KeyRing } from '../key-ring.js';
import { dataFolderSecretBox } from '../webhooks/secret-box.js';
import { checkSchema, ImportRefusedError, unpack } from './import.js';
import type { Manifest } from './manifest.js';
import { sealedRow } from './sealed-row.js';
import { describeStoreContents } from './store-contents.js';

/** Writes an archive's attachment files as chunks of the attachments it has rows for; answers how many. */
async function copyAttachmentFiles(tx: Queries, staging: string): Promise<number> {
  const folder = join(staging, 'attachments');
  if (!existsSync(folder)) return 0;
  let copied = 0;
  const buffer = Buffer.alloc(ATTACHMENT_CHUNK_BYTES);
  for (const project of readdirSync(folder)) {
    for (const id of readdirSync(join(folder, project))) {
      const [row] = await tx.select({ id: attachments.id }).from(attachments).where(eq(attachments.id, id)).limit(1);
      if (!row) continue;
      const fd = openSync(join(folder, project, id), 'r');
      try {
        for (let position = 0; ; position++) {
          const read = readSync(fd, buffer, 0, buffer.length, null);
          if (read === 0) break;
          await tx
            .insert(attachmentChunks)
            .values({ attachmentId: id, position, bytes: Buffer.from(buffer.subarray(0, read)) });
        }
      } finally {
        closeSync(fd);
      }
      copied++;
    }
  }
  return copied;
}

/**
 * Restores an archive (from `switchboard export` or `backup`, usually of a laptop's SQLite data folder) into a store
 * with no data folder of its own: a team's PostgreSQL. The archive is unpacked and checked in full first, as for a
 * data folder; then, in one transaction, every table is copied (its database brought up to this build's schema),
 * the webhook endpoints' signing secrets are opened with the archive's key and sealed again with this server's, and
 * the attachment files become chunks in the database. The server's own keys are not copied: tokens signed on the
 * laptop (chat, RTC, sessions) stop working, and their holders sign in or fetch new ones. A store that holds
 * accounts or projects is refused unless `replace`, which empties it first, in the same transaction. Text the store
 * cannot hold (a NUL, on PostgreSQL) is replaced, and counted in the answer's `replaced` (db/holdable-text.ts).
 */
export async function importArchiveIntoStore(
  file: string,
  server: { store: Store; keys: KeyRing },
  options: { replace: boolean; switchboardVersion: string },
): Promise<Manifest & CopyReport> {
  const staging = mkdtempSync(join(tmpdir(), 'switchboard-import-'));
  try {
    const manifest = await unpack(file, staging, options.switchboardVersion);
    checkSchema(staging, manifest, options.switchboardVersion);
    const archiveSecrets = dataFolderSecretBox(staging);
    const report = await server.store.transaction(async (tx) => {
      const contents = await describeStoreContents(tx);
      if (contents && !options.replace)
        throw new ImportRefusedError(
          `The database already holds ${contents}; an import never merges into it. Pass --replace to replace ` +
            'everything in it with the archive, or use an empty database.',
        );
      for (const table of tablesInDependencyOrder().reverse()) if (table !== serverSecrets) await tx.delete(table);
      const copy = await copySqliteInto(tx, server.store.dialect, staging, appDatabaseFiles(), {
        skip: [serverSecrets],
        transform: (table, row) =>
          table === webhookEndpoints
            ? {
                ...row,
                ...sealedRow(
                  server.keys.webhookSecrets.seal(
                    archiveSecrets.open(row.secretCiphertext as string, row.id as string),
                    row.id as string,
                  ),
                ),
              }
            : row,
      });
      copy.copied.set(getTableName(attachmentChunks), await copyAttachmentFiles(tx, staging));
      return copy;
    });
    return { ...manifest, ...report };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
