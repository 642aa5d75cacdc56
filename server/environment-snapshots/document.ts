import { gunzipSync, gzipSync } from 'node:zlib';
import { SNAPSHOT_KINDS, type SnapshotKind, type SnapshotRow } from './contents.js';

/** Bumped when what a document holds changes shape; a document of another format is refused, never half read. */
const FORMAT = 1;

/** What a snapshot holds: every row as drizzle reads it (the same on both stores), and attachment bytes by id. */
export interface SnapshotDocument {
  rows: Record<SnapshotKind, SnapshotRow[]>;
  files: Record<string, Buffer>;
}

/**
 * JSON (the rows' values are text, numbers, booleans, null and JSON columns' values, all of which it carries
 * exactly), with attachment bytes in base64, compressed with gzip at level 1: 10,000 messages' JSON shrinks to about
 * a sixth, and a higher level costs more time than the bytes it saves.
 */
export function encodeSnapshot(document: SnapshotDocument): Buffer {
  const files = Object.fromEntries(Object.entries(document.files).map(([id, bytes]) => [id, bytes.toString('base64')]));
  return gzipSync(JSON.stringify({ format: FORMAT, rows: document.rows, files }), { level: 1 });
}

export function decodeSnapshot(content: Buffer): SnapshotDocument {
  const parsed = JSON.parse(gunzipSync(content).toString('utf8')) as {
    format: number;
    rows: Partial<Record<SnapshotKind, SnapshotRow[]>>;
    files: Record<string, string>;
  };
  if (parsed.format !== FORMAT) throw new Error(`environment snapshot: format ${parsed.format}, not ${FORMAT}`);
  return {
    rows: Object.fromEntries(SNAPSHOT_KINDS.map((kind) => [kind, parsed.rows[kind] ?? []])) as SnapshotDocument['rows'],
    files: Object.fromEntries(Object.entries(parsed.files).map(([id, text]) => [id, Buffer.from(text, 'base64')])),
  };
}
