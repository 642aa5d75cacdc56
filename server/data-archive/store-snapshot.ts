import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq, inArray } from 'drizzle-orm';
import { copyIntoSqlite } from '../../db/copy-tables.js';
import { attachmentChunks, attachments } from '../../db/schema/attachments.js';
import { serverSecrets } from '../../db/schema/server-secrets.js';
import { webhookEndpoints } from '../../db/schema/webhooks.js';
import type { Store } from '../../db/store.js';
import { appDatabaseFiles } from '../app-files/database-files.js';
import type { KeyRing } from '../key-ring.js';
import { dataFolderSecretBox, SECRET_KEY_FILE } from '../webhooks/secret-box.js';
import { DATABASE_ENTRY, WEBHOOK_KEY_ENTRY } from './manifest.js';
import { sealedRow } from './sealed-row.js';
import { type Snapshot, type SnapshotEntry, sha256OfFile } from './snapshot.js';

/**
 * A snapshot of a store with no data folder (a server on PostgreSQL) in the archive's one format, the same a SQLite
 * data folder gives: the tables copied into a new SQLite file, the attachment bytes as files, and the webhook
 * endpoints' signing secrets sealed with a new key of the archive's own (this server's key is derived from its
 * secret key, which never leaves it). All read in one transaction: one consistent moment. So an archive of a
 * team's server restores into a laptop's data folder (`serve --import`) as well as into another database.
 */
export async function takeStoreSnapshot(store: Store, keys: KeyRing): Promise<Snapshot> {
  const staging = mkdtempSync(join(tmpdir(), 'switchboard-snapshot-'));
  const dispose = () => rmSync(staging, { recursive: true, force: true });
  try {
    const archiveSecrets = dataFolderSecretBox(staging);
    const files: { path: string; file: string }[] = [];
    await store.transaction(async (tx) => {
      await copyIntoSqlite(tx, staging, appDatabaseFiles(), {
        skip: [serverSecrets, attachmentChunks],
        transform: (table, row) =>
          table === webhookEndpoints
            ? {
                ...row,
                ...sealedRow(
                  archiveSecrets.seal(
                    keys.webhookSecrets.open(row.secretCiphertext as string, row.id as string),
                    row.id as string,
                  ),
                ),
              }
            : row,
      });
      const stored = await tx
        .select({ id: attachments.id, projectId: attachments.projectId })
        .from(attachments)
        .where(inArray(attachments.status, ['UPLOADED', 'COMPLETED']));
      for (const { id, projectId } of stored) {
        const chunks = await tx
          .select({ bytes: attachmentChunks.bytes })
          .from(attachmentChunks)
          .where(eq(attachmentChunks.attachmentId, id))
          .orderBy(asc(attachmentChunks.position));
        const path = `attachments/${projectId}/${id}`;
        mkdirSync(join(staging, 'attachments', projectId), { recursive: true });
        writeFileSync(join(staging, path), Buffer.concat(chunks.map((chunk) => chunk.bytes)), { mode: 0o600 });
        files.push({ path, file: join(staging, path) });
      }
    });
    files.unshift({ path: DATABASE_ENTRY, file: join(staging, DATABASE_ENTRY) });
    if (existsSync(join(staging, SECRET_KEY_FILE)))
      files.push({ path: WEBHOOK_KEY_ENTRY, file: join(staging, SECRET_KEY_FILE) });
    const entries: SnapshotEntry[] = [];
    for (const { path, file } of files)
      entries.push({ path, file, bytes: statSync(file).size, sha256: await sha256OfFile(file) });
    return { entries, dispose };
  } catch (err) {
    dispose();
    throw err;
  }
}
