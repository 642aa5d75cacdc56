import type { CliIo } from './io.js';

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
}

/** Left-aligned columns two spaces apart, under upper-case headers; the last column is not padded. */
export function formatTable<Row>(rows: readonly Row[], columns: readonly Column<Row>[]): string {
  const cells = [columns.map((c) => c.header.toUpperCase()), ...rows.map((row) => columns.map((c) => c.value(row)))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i].length)));
  return cells
    .map((line) =>
      line
        .map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** `2026-01-01T12:00:00.000Z` → `2026-01-01 12:00:00Z`; null → `never`. */
export function formatTime(iso: string | null): string {
  return iso === null ? 'never' : iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

/** Labelled values one a line, the values aligned: `Label:  value`. */
export function formatFields(fields: readonly [label: string, value: string][]): string {
  const width = Math.max(...fields.map(([label]) => label.length)) + 1;
  return fields.map(([label, value]) => `${`${label}:`.padEnd(width)}  ${value}`).join('\n');
}

/** `1536` → `1.5 KiB`. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

/** `3725` → `1 h 2 min`: the two largest units. */
export function formatDuration(totalSeconds: number): string {
  const parts = [
    [Math.floor(totalSeconds / 86_400), 'd'],
    [Math.floor(totalSeconds / 3600) % 24, 'h'],
    [Math.floor(totalSeconds / 60) % 60, 'min'],
    [totalSeconds % 60, 's'],
  ] as const;
  const first = parts.findIndex(([n]) => n > 0);
  if (first === -1) return '0 s';
  return parts
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${unit}`)
    .join(' ');
}

/**
 * Where a command's results go: with `--json` the API's JSON alone on stdout (for scripts), else
 * text for people. Warnings and hints go to stderr in both modes, so they never corrupt the JSON.
 */
export class Output {
  constructor(
    private readonly io: CliIo,
    readonly json: boolean,
  ) {}

  /** `value` as JSON with `--json` (nothing when the API answered nothing), else `human()`. */
  result(value: unknown, human: () => string): void {
    if (!this.json) this.line(human());
    else if (value !== undefined) this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** One event of a live feed: a line of compact JSON with `--json` (one per event, for `jq`), else `human()`. */
  event(value: unknown, human: () => string): void {
    if (this.json) this.io.stdout.write(`${JSON.stringify(value)}\n`);
    else this.line(human());
  }

  /** Rows as a table, or `empty` when there are none; `value` with `--json`. */
  table<Row>(value: unknown, rows: readonly Row[], columns: readonly Column<Row>[], empty: string): void {
    this.result(value, () => (rows.length ? formatTable(rows, columns) : empty));
  }

  /** One page of a paged list as a table (`value` with `--json`), and on stderr how to get the next. */
  page<Row>(page: { data: readonly Row[]; nextCursor: string | null }, columns: readonly Column<Row>[], empty: string) {
    this.table(page, page.data, columns, empty);
    if (page.nextCursor) this.note(`More: --cursor ${page.nextCursor}`);
  }

  /** A line of text for people; nothing with `--json`. */
  line(text: string): void {
    if (!this.json) this.io.stdout.write(`${text}\n`);
  }

  /** A warning or hint, on stderr whatever the mode. */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }
}
