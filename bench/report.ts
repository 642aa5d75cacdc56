import type { Measurement } from './load.js';

/** The figure the benchmark exists for: key-authenticated GET throughput relative to bare Express. */
export const TARGET_RATIO = 0.7;

const HEADERS = ['Scenario', 'Conn', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'Responses', 'Non-2xx', 'Errors'];
/** The scenario name is text; every other column is a number and reads best right-aligned. */
const pad = (cell: string, width: number, column: number) => (column === 0 ? cell.padEnd(width) : cell.padStart(width));

function row(m: Measurement): string[] {
  return [
    m.name,
    String(m.connections),
    m.requestsPerSecond.toFixed(m.requestsPerSecond < 100 ? 1 : 0),
    String(m.p50),
    String(m.p99),
    m.serverCpuPerRequest.toFixed(0),
    String(m.responses),
    m.non2xx === 0 ? '0' : `${m.non2xx} (${m.statusSummary})`,
    String(m.errors),
  ];
}

/** A header row and rows of cells as aligned columns, with a rule under the header. */
export function formatColumns(rows: readonly string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? '').length)));
  const lines = rows.map((cells) =>
    widths
      .map((width, column) => pad(cells[column] ?? '', width, column))
      .join('  ')
      .trimEnd(),
  );
  lines.splice(1, 0, widths.map((width) => '-'.repeat(width)).join('  '));
  return lines.join('\n');
}

export function formatTable(measurements: readonly Measurement[]): string {
  return formatColumns([HEADERS, ...measurements.map(row)]);
}

export const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

/** The p-th percentile of samples sorted ascending (NaN for none). */
export const percentile = (sorted: ArrayLike<number>, p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** `name / base: 81.2%` — throughput of one scenario as a share of another's. */
export function formatRatio(label: string, of: Measurement, base: Measurement): string {
  return `${label.padEnd(34)} ${percent(of.requestsPerSecond / base.requestsPerSecond).padStart(6)}`;
}

/**
 * The target line: the key-auth ratio (or another, with its label and target), the target and the verdict.
 * Information, not an assertion.
 */
export function formatVerdict(
  keyAuth: Measurement,
  plain: Measurement,
  label = 'key-auth GET / plain handler',
  target = TARGET_RATIO,
): string {
  const ratio = keyAuth.requestsPerSecond / plain.requestsPerSecond;
  const verdict = ratio >= target ? 'PASS' : 'BELOW TARGET';
  return `${formatRatio(label, keyAuth, plain)}   target ≥ ${percent(target).replace('.0', '')}   ${verdict}`;
}

/**
 * The same comparison from server CPU time per request (plain ÷ key-auth): what each request costs,
 * whatever share of the CPUs the server got. It cross-checks the req/s ratio, which other processes
 * on the machine can skew.
 */
export function formatCpuRatio(keyAuth: Measurement, plain: Measurement): string {
  const ratio = plain.serverCpuPerRequest / keyAuth.serverCpuPerRequest;
  return `${'  same, from server CPU µs/req'.padEnd(34)} ${percent(ratio).padStart(6)}`;
}
