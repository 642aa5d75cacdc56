import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ServerData, withTestDatabase } from './test-database.js';

/**
 * The bytes a test server keeps for an attachment, wherever its store keeps them: the file in the data folder
 * (SQLite), or the attachment's rows of `attachment_chunks` (PostgreSQL). Undefined when there are none.
 */
export async function storedAttachment(
  server: ServerData,
  projectId: string,
  attachmentId: string,
): Promise<Buffer | undefined> {
  if (!server.databaseUrl) {
    const file = join(server.dataDir, 'attachments', projectId, attachmentId);
    return existsSync(file) ? readFileSync(file) : undefined;
  }
  const chunks = await withTestDatabase(server, (db) =>
    db.query<{ bytes: Buffer }>('SELECT bytes FROM attachment_chunks WHERE attachment_id = ? ORDER BY position', [
      attachmentId,
    ]),
  );
  return chunks.length ? Buffer.concat(chunks.map((chunk) => chunk.bytes)) : undefined;
}
