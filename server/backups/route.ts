import type { Request, RequestHandler } from 'express';
import * as z from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { AppContext } from '../context.js';
import { writeArchive } from '../data-archive/write.js';
import { unauthenticated } from '../errors.js';
import { errorSchema } from '../shared/schemas.js';
import { ADMIN_TOKEN_FILE } from './admin-token-file.js';

/** Outside the JSON route table: the answer is the archive itself, and the credential is the server's own. */
export const BACKUP_PATH = '/v1/server/backup';

const refused = () =>
  unauthenticated(
    `This route needs the server's admin token in the Authorization header (the ${ADMIN_TOKEN_FILE} file in its ` +
      'data folder, as `switchboard backup` sends it).',
  );

function bearer(req: Request): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) throw refused();
  return match[1];
}

/** `switchboard-backup-2026-01-02T03-04-05Z.tar.gz` */
const archiveName = (createdAt: string) =>
  `switchboard-backup-${createdAt.replace(/\.\d+Z$/, 'Z').replaceAll(':', '-')}.tar.gz`;

export function backupHandler(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    if (!ctx.services.backups.isAdminToken(bearer(req))) throw refused();
    const { snapshot, manifest } = await ctx.services.backups.snapshot();
    try {
      res.writeHead(200, {
        'Content-Type': 'application/gzip',
        'Content-Disposition': `attachment; filename="${archiveName(manifest.createdAt)}"`,
        'Cache-Control': 'no-store',
      });
      // Headers are sent: a failure from here on can only cut the response short, which the client sees
      // as a truncated archive (and an import refuses).
      await writeArchive(snapshot, manifest, res).catch((err: unknown) => {
        ctx.logger.warn({ err }, 'backup download ended early');
        res.destroy();
      });
    } finally {
      snapshot.dispose();
    }
  };
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: errorSchema } } });

export const backupPaths = (): ZodOpenApiPathsObject => ({
  [BACKUP_PATH]: {
    get: {
      operationId: 'downloadBackup',
      summary: 'Download a backup of the whole server',
      description:
        'A consistent copy of the running server (SQLite online backup: the server keeps serving), its webhook ' +
        'secrets key and its attachment files, as one gzip’d tar archive (format `switchboard-archive`, described ' +
        'in docs/backups.md). `switchboard serve --import` restores it. The ' +
        `credential is the server's admin token, the \`${ADMIN_TOKEN_FILE}\` file of its data folder, not an ` +
        'account: a backup holds every project and account and the keys that sign tokens, so only whoever can read ' +
        'the data folder may take one.',
      tags: ['Server'],
      security: [{ adminToken: [] }],
      responses: {
        200: {
          description: 'The archive, streamed; `Content-Disposition` names it.',
          content: { 'application/gzip': { schema: z.string().meta({ format: 'binary' }) } },
        },
        401: error('Missing or wrong admin token (`SERVICE_UNAUTHENTICATED`).'),
      },
    },
  },
});
