import * as z from 'zod';

/** The `format` of every Switchboard data archive. */
export const ARCHIVE_FORMAT = 'switchboard-archive';
/**
 * The newest archive format version this server writes and reads. Raise it when a reader of the
 * previous version would misread a new archive; older archives keep being read.
 */
export const ARCHIVE_VERSION = 1;
/** The archive's first entry. */
export const MANIFEST_ENTRY = 'manifest.json';

/** The paths an archive may hold besides its manifest: server-made names only, never a client's. */
export const DATABASE_ENTRY = 'switchboard.db';
export const WEBHOOK_KEY_ENTRY = 'webhook-secrets.key';
/** The key a rotation replaced, in an archive of a data folder taken before the rotation was done. */
export const PREVIOUS_WEBHOOK_KEY_ENTRY = 'webhook-secrets.previous.key';
export const ATTACHMENT_ENTRY = /^attachments\/prj_[0-9A-Za-z]+\/att_[0-9A-Za-z]+$/;

export const isArchivePath = (path: string) =>
  path === DATABASE_ENTRY ||
  path === WEBHOOK_KEY_ENTRY ||
  path === PREVIOUS_WEBHOOK_KEY_ENTRY ||
  ATTACHMENT_ENTRY.test(path);

/** What an archive's first entry says: enough to refuse a newer format before reading anything else. */
const formatHeader = z.lazy(() => z.object({ format: z.literal(ARCHIVE_FORMAT), version: z.int().positive() }));

export const manifestSchema = z.lazy(() =>
  z.object({
    format: z.literal(ARCHIVE_FORMAT),
    version: z.int().positive(),
    switchboardVersion: z.string(),
    createdAt: z.iso.datetime(),
    entries: z.array(
      z.object({
        path: z.string().refine(isArchivePath, 'not a path a Switchboard archive holds'),
        bytes: z.int().nonnegative(),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    ),
  }),
);

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestEntry = Manifest['entries'][number];

/** An archive this server cannot import: not an archive, damaged, or newer than it reads. */
export class ArchiveRefusedError extends Error {}

/** Checks the format and version first (so a newer archive is refused as such), then the rest. */
export function parseManifest(text: string, ourVersion: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ArchiveRefusedError('Not a Switchboard archive: its manifest is not JSON.');
  }
  const header = formatHeader.safeParse(value);
  if (!header.success) throw new ArchiveRefusedError(`Not a Switchboard archive: no "format": "${ARCHIVE_FORMAT}".`);
  if (header.data.version > ARCHIVE_VERSION) {
    const writer = (value as { switchboardVersion?: unknown }).switchboardVersion;
    throw new ArchiveRefusedError(
      `This archive is format version ${header.data.version}${typeof writer === 'string' ? ` (written by Switchboard ${writer})` : ''}; ` +
        `this Switchboard (${ourVersion}) reads versions up to ${ARCHIVE_VERSION}. Upgrade Switchboard to import it.`,
    );
  }
  const manifest = manifestSchema.safeParse(value);
  if (!manifest.success) {
    const issue = manifest.error.issues[0];
    throw new ArchiveRefusedError(`The archive's manifest is damaged: ${issue.path.join('.')}: ${issue.message}.`);
  }
  return manifest.data;
}
