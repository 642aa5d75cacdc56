/**
 * The PostgreSQL part of the benchmark (BENCH_ONLY=postgres): Switchboard on PostgreSQL beside Express 5 and a `pg`
 * Pool of the same size on the same database server. Targets (issue text): a message POST at ≥ 0.8× a raw insert
 * through the same driver and pool, and the key-authenticated GET /v1/whoami at ≥ 0.85× plain Express doing one query.
 *
 * A real PostgreSQL (test/support/postgres.ts: durability off, as for the tests, so that the floors and Switchboard
 * both measure Node's work rather than the disk), one database per server under test. The three servers stay up
 * together (the idle ones cost nothing) and are measured in alternating rounds, each figure the median round: this
 * machine's speed drifts over minutes (see bench/chat.ts). CPU µs/req is the Node server's only; PostgreSQL's own
 * work is in neither. Switchboard authenticates a known key from its in-process cache (server/keys/service.ts), so its
 * GET may send no query at all and beat the floor; the floor's one query is what the target names.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { postgresBinaries, postgresMissing, startPostgres } from '../test/support/postgres.js';
import { conversationOn, medianRound, type PostTarget, prepareConversation, rawTarget } from './chat.js';
import { type ServerProcess, spawnServer } from './child.js';
import { type BenchConfig, PLAIN_QUERY_PATH } from './config.js';
import { type LoadOptions, type Measurement, measure, requireAllOk } from './load.js';
import { formatCpuRatio, formatTable, formatVerdict } from './report.js';
import { createCredentials } from './setup.js';

/** Message POST / raw insert through the same driver and pool, at least. */
export const POSTGRES_POST_TARGET = 0.8;
/** Key-authenticated GET / plain Express doing one query, at least. */
export const POSTGRES_GET_TARGET = 0.85;
/** Alternating rounds of the four scenarios (BENCH_POSTGRES_ROUNDS, default 3). */
const rounds = () => Math.max(1, Math.round(Number(process.env.BENCH_POSTGRES_ROUNDS ?? 3)));

const progress = (line: string) => process.stderr.write(`${line}\n`);

/** One scenario: how to load it, measured again each round. */
interface Scenario {
  name: string;
  server: ServerProcess;
  path: string;
  options: Partial<LoadOptions>;
}

/** A message POST (Switchboard's or the raw insert's), as bench/chat.ts sends it, with a fixed text. */
const postScenario = (target: PostTarget): Scenario => ({
  name: target.name,
  server: target.server,
  path: target.path,
  options: {
    method: 'POST',
    headers: { ...target.headers, 'content-type': 'application/json' },
    body: target.body('bench:postgres'),
  },
});

async function measureRounds(scenarios: Scenario[], load: LoadOptions): Promise<Measurement[]> {
  const results: Measurement[][] = scenarios.map(() => []);
  for (let round = 1; round <= rounds(); round++) {
    for (const [i, { name, server, path, options }] of scenarios.entries()) {
      progress(`  round ${round}: ${name} …`);
      const m = await measure(
        name,
        { url: `${server.url}${path}`, cpuMicros: server.cpuMicros },
        { ...load, ...options },
      );
      requireAllOk(m);
      results[i].push(m);
    }
  }
  for (const [i, { name }] of scenarios.entries()) {
    progress(`  ${name}, req/s by round: ${results[i].map((m) => m.requestsPerSecond.toFixed(0)).join(', ')}`);
  }
  return results.map(medianRound);
}

export async function runPostgresBench(config: BenchConfig, load: LoadOptions): Promise<void> {
  const missing = postgresMissing();
  if (missing) {
    console.log(`\nPostgreSQL part skipped: ${missing}.`);
    return;
  }
  progress('Starting PostgreSQL …');
  const postgres = await startPostgres();
  // Ctrl-C ends this process through process.exit (bench/run.ts): the database server must not outlive it.
  const stopPostgres = () => postgres.stop();
  process.once('exit', stopPostgres);
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-postgres-'));
  const servers: ServerProcess[] = [];
  const start = async (...args: Parameters<typeof spawnServer>) => {
    const server = await spawnServer(...args);
    servers.push(server);
    return server;
  };
  try {
    const database = () => postgres.url(postgres.createDatabase());
    const rawInsert = await start('raw-insert-postgres', [database()], config.cpuProfDir);
    const plainQuery = await start('plain-postgres', [database()], config.cpuProfDir);
    const switchboard = await start('switchboard-postgres', [dataDir, database()], config.cpuProfDir);
    const { apiKey } = await createCredentials(switchboard.url);
    // A conversation of the sender alone: the message POST with no subscriber.
    const { target } = conversationOn(switchboard, await prepareConversation(switchboard.url, apiKey, 0));

    progress(`Measuring Switchboard on PostgreSQL beside Express + pg (${rounds()} rounds) …`);
    const [insert, post, plain, keyAuth] = await measureRounds(
      [
        postScenario(rawTarget('raw Express+pg insert', rawInsert)),
        postScenario({ ...target, name: `${target.name}, no subscriber` }),
        { name: 'plain Express + one pg query', server: plainQuery, path: PLAIN_QUERY_PATH, options: {} },
        {
          name: 'key-auth GET /v1/whoami',
          server: switchboard,
          path: '/v1/whoami',
          options: { headers: { authorization: `Bearer ${apiKey}` } },
        },
      ],
      load,
    );

    const version = basename(dirname(postgresBinaries() ?? ''));
    console.log('');
    console.log(
      `PostgreSQL ${version} (fsync off), one database per server, pools of 10; each figure the median of ${rounds()} rounds`,
    );
    console.log(formatTable([insert, post, plain, keyAuth]));
    console.log('');
    console.log(formatVerdict(post, insert, 'POST message / raw pg insert', POSTGRES_POST_TARGET));
    console.log(formatCpuRatio(post, insert));
    console.log(formatVerdict(keyAuth, plain, 'key-auth GET / plain pg query', POSTGRES_GET_TARGET));
    console.log(formatCpuRatio(keyAuth, plain));
  } finally {
    for (const server of servers) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    process.off('exit', stopPostgres);
    postgres.stop();
  }
}
