import { createReadStream, createWriteStream, renameSync, rmSync, statSync } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, MANIFEST_ENTRY, type Manifest } from './manifest.js';
import type { Snapshot } from './snapshot.js';
import { ArchiveFormatError, END_OF_ARCHIVE, fileHeader, padding } from './tar.js';

export function manifestOf(snapshot: Snapshot, meta: { switchboardVersion: string; createdAt: Date }): Manifest {
  return {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    switchboardVersion: meta.switchboardVersion,
    createdAt: meta.createdAt.toISOString(),
    entries: snapshot.entries.map(({ path, bytes, sha256 }) => ({ path, bytes, sha256 })),
  };
}

/** The tar stream: the manifest first, then each entry in its order. */
async function* tarOf(snapshot: Snapshot, manifest: Manifest): AsyncGenerator<Buffer> {
  const createdAt = new Date(manifest.createdAt);
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  yield fileHeader(MANIFEST_ENTRY, manifestBytes.length, createdAt);
  yield manifestBytes;
  yield padding(manifestBytes.length);
  for (const entry of snapshot.entries) {
    // The staged files are the snapshot's own: a size that changed means something wrote to the staging folder.
    if (statSync(entry.file).size !== entry.bytes) throw new ArchiveFormatError(`${entry.path} changed while archived`);
    yield fileHeader(entry.path, entry.bytes, createdAt);
    for await (const chunk of createReadStream(entry.file)) yield chunk as Buffer;
    yield padding(entry.bytes);
  }
  yield END_OF_ARCHIVE;
}

/** Writes the snapshot as a gzip'd tar to `out` (a file, an HTTP response). */
export function writeArchive(snapshot: Snapshot, manifest: Manifest, out: Writable): Promise<void> {
  return pipeline(Readable.from(tarOf(snapshot, manifest)), createGzip(), out);
}

/** Writes the archive to a temporary file beside `file`, renamed into place once complete. */
export async function writeArchiveFile(snapshot: Snapshot, manifest: Manifest, file: string): Promise<void> {
  const temporary = `${file}.${process.pid}.part`;
  try {
    await writeArchive(snapshot, manifest, createWriteStream(temporary, { mode: 0o600 }));
    renameSync(temporary, file);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
}
