/*
 * The container of a data archive: a POSIX ustar stream (what `tar` reads and writes), gzip'd by the
 * caller. Only what archives need: regular files, names of at most 100 bytes, sizes past 8 GiB in GNU
 * base-256. Written by hand because Node has no tar and the format is small.
 */

const BLOCK = 512;
const NAME_BYTES = 100;
/** The largest size that 11 octal digits hold; larger sizes use base-256. */
const MAX_OCTAL_SIZE = 8 ** 11 - 1;

export class ArchiveFormatError extends Error {}

function writeOctal(header: Buffer, offset: number, width: number, value: number): void {
  header.write(`${value.toString(8).padStart(width - 1, '0')}\0`, offset, width, 'ascii');
}

function writeSize(header: Buffer, size: number): void {
  if (size <= MAX_OCTAL_SIZE) {
    writeOctal(header, 124, 12, size);
    return;
  }
  header[124] = 0x80;
  let rest = BigInt(size);
  for (let i = 135; i > 124; i--) {
    header[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
}

function readSize(header: Buffer): number {
  if (header[124] & 0x80) {
    let value = 0n;
    for (let i = 125; i < 136; i++) value = (value << 8n) | BigInt(header[i]);
    return Number(value);
  }
  return readOctal(header, 124, 12);
}

function readOctal(header: Buffer, offset: number, width: number): number {
  const text = header
    .toString('ascii', offset, offset + width)
    .replace(/[\0 ]+$/, '')
    .trim();
  if (!/^[0-7]*$/.test(text)) throw new ArchiveFormatError('Not a tar archive: a header number is not octal.');
  return text === '' ? 0 : Number.parseInt(text, 8);
}

const checksumOf = (header: Buffer) => {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i];
  return sum;
};

/** The 512-byte header of a regular file. */
export function fileHeader(name: string, size: number, modifiedAt: Date): Buffer {
  if (Buffer.byteLength(name) > NAME_BYTES) throw new Error(`Archive entry name too long: ${name}`);
  const header = Buffer.alloc(BLOCK);
  header.write(name, 0, NAME_BYTES, 'utf8');
  writeOctal(header, 100, 8, 0o600);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeSize(header, size);
  writeOctal(header, 136, 12, Math.floor(modifiedAt.getTime() / 1000));
  header.write('0', 156, 1, 'ascii');
  header.write('ustar\0', 257, 6, 'ascii');
  header.write('00', 263, 2, 'ascii');
  header.write(`${checksumOf(header).toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return header;
}

/** Zeros that bring an entry of `size` bytes to a whole number of blocks. */
export const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** Two empty blocks end an archive. */
export const END_OF_ARCHIVE = Buffer.alloc(2 * BLOCK);

export interface TarEntrySink {
  write(chunk: Buffer): void | Promise<void>;
  end(): void | Promise<void>;
}

/**
 * Reads a tar stream, handing each regular file's bytes to the sink `open` returns for it. Anything
 * but regular files (directories, links, extended headers) is refused: archives never hold them.
 */
export async function readTar(
  input: AsyncIterable<Buffer>,
  open: (entry: { name: string; size: number }) => TarEntrySink | Promise<TarEntrySink>,
): Promise<void> {
  let pending: Buffer = Buffer.alloc(0);
  let sink: TarEntrySink | undefined;
  let remaining = 0;
  let skip = 0;
  let ended = false;

  for await (const chunk of input) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length && !ended) {
      if (sink) {
        const part = pending.subarray(0, remaining);
        pending = pending.subarray(part.length);
        remaining -= part.length;
        await sink.write(part);
        if (remaining === 0) {
          await sink.end();
          sink = undefined;
        }
        continue;
      }
      if (skip) {
        const skipped = Math.min(skip, pending.length);
        pending = pending.subarray(skipped);
        skip -= skipped;
        continue;
      }
      if (pending.length < BLOCK) break;
      const header = pending.subarray(0, BLOCK);
      pending = pending.subarray(BLOCK);
      if (header.every((byte) => byte === 0)) {
        ended = true;
        break;
      }
      if (readOctal(header, 148, 8) !== checksumOf(header))
        throw new ArchiveFormatError('Not a tar archive, or a damaged one: a header checksum does not match.');
      const type = String.fromCharCode(header[156] || 0x30);
      const name = header.toString('utf8', 0, NAME_BYTES).replace(/\0.*$/s, '');
      if (type !== '0') throw new ArchiveFormatError(`Unexpected archive entry ${name} (type ${type}).`);
      const size = readSize(header);
      sink = await open({ name, size });
      remaining = size;
      skip = padding(size).length;
      if (size === 0) {
        await sink.end();
        sink = undefined;
      }
    }
  }
  if (sink || !ended) throw new ArchiveFormatError('The archive is truncated: it ends in the middle of an entry.');
}
