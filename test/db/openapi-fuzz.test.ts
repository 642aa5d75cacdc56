// The property test over the served OpenAPI document: every operation, called with valid credentials and fixtures
// but for one or two bad values (a path parameter, a query parameter, a body field, the whole body, the credential),
// never answers a 5xx, always answers an error with a SERVICE_* code and a request id, and answers the same on
// SQLite and on PostgreSQL. Here, not in test/api, because it starts a server on each store itself and compares
// them: the `postgres` project must not run it a second time.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/index.js';
import { routes } from '../../server/routes.js';
import { client } from '../support/http.js';
import { caseArbitrary, describeCase, type Fixtures, type FuzzCase, render } from '../support/openapi-fuzz/cases.js';
import { makeFixtures } from '../support/openapi-fuzz/fixtures.js';
import { type Operation, operationsOf } from '../support/openapi-fuzz/operations.js';
import { type Answer, sender } from '../support/openapi-fuzz/send.js';
import { type PostgresServer, postgresMissing, startPostgres } from '../support/postgres.js';
import { manualClock } from '../support/server.js';
import { TEST_SECRET_KEY } from '../support/test-store.js';

/** Reproducible: the same cases every run. FUZZ_SEED=… tries others. */
const SEED = Number(process.env.FUZZ_SEED ?? 44);
/**
 * Cases per operation, after its valid input: 1,456 calls to each store. About 22 s of CPU for the test process at 14
 * (3,360 calls), PostgreSQL besides; 12 keeps the file well inside its minute on two cores shared with the suite.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

/**
 * Operations that undo fixtures others need, last and in this order (each case still the same on both stores):
 * what ends, deletes or revokes, then the environment reset, the project's deletion and the sign-out.
 */
const LAST = [
  'createEnvironmentFault',
  'advanceEnvironmentClock',
  'dropEnvironmentSockets',
  'resetEnvironmentClock',
  'clearEnvironmentFaults',
  'removeEnvironmentFault',
  'removeReaction',
  'deleteMessage',
  'removeConversationMember',
  'leaveLiveStream',
  'removeLiveStreamHost',
  'removeProjectLiveStreamHost',
  'endLiveStream',
  'endProjectLiveStream',
  'deleteWebhook',
  'deleteRoom',
  'deleteProjectRoom',
  'removeMember',
  'revokeApiKey',
  'resetEnvironment',
  'deleteProject',
  'logout',
];

interface Store {
  name: 'SQLite' | 'PostgreSQL';
  server: RunningServer;
  dataDir: string;
  fixtures: Fixtures;
  send: (c: FuzzCase) => Promise<Answer>;
  close(): void;
}

const missing = postgresMissing();
if (missing) console.warn(`The OpenAPI fuzz compares nothing with PostgreSQL: ${missing}. It fuzzes SQLite alone.`);

let postgres: PostgresServer | undefined;
const stores: Store[] = [];
let operations: Operation[] = [];

async function startStore(name: Store['name']): Promise<Store> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-fuzz-'));
  const database =
    name === 'PostgreSQL' && postgres
      ? { databaseUrl: postgres.url(postgres.createDatabase()), secretKey: TEST_SECRET_KEY }
      : {};
  const server = await startServer({
    dataDir,
    ...database,
    port: 0,
    host: '127.0.0.1',
    logger: pino({ level: 'silent' }),
    clock: manualClock(),
    // Webhook deliveries go nowhere: each is answered 200 at once.
    fetch: async () => new Response('ok', { status: 200 }),
  });
  const fixtures = await makeFixtures(client(server.url), dataDir);
  const http = sender(server.url);
  return {
    name,
    server,
    dataDir,
    fixtures,
    send: (c) => http.send(render(c, fixtures)),
    close: http.close,
  };
}

beforeAll(async () => {
  if (!missing) postgres = await startPostgres();
  stores.push(...(await Promise.all([startStore('SQLite'), ...(postgres ? [startStore('PostgreSQL')] : [])])));
  const doc = await (await fetch(`${stores[0].server.url}/openapi.json`)).json();
  const all = operationsOf(doc);
  const last = LAST.map((id) => all.find((op) => op.operationId === id)).filter((op) => op !== undefined);
  operations = [...all.filter((op) => !LAST.includes(op.operationId)), ...last];
}, 60_000);

afterAll(async () => {
  for (const store of stores) {
    store.close();
    await store.server.close();
    rmSync(store.dataDir, { recursive: true, force: true });
  }
  postgres?.stop();
});

/** What an answer breaks of the rules, if anything: a 5xx, or an error without its code and request id. */
function broken(answer: Answer): string | undefined {
  if (answer.status >= 500) return `${answer.status}`;
  if (answer.status < 400) return undefined;
  const { code, requestId } = answer.body ?? {};
  if (typeof code !== 'string' || !/^SERVICE_[A-Z_]+$/.test(code)) return `${answer.status} without a SERVICE_* code`;
  if (typeof requestId !== 'string' || !/^req_/.test(requestId)) return `${answer.status} without a requestId`;
  return undefined;
}

const outcome = (answer: Answer) => `${answer.status}${answer.body?.code ? ` ${answer.body.code}` : ''}`;
const shown = (answer: Answer) => {
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

describe('every operation of the OpenAPI document, fed bad values', () => {
  it('never answers a 5xx or an error without SERVICE_* code and requestId, and answers alike on both stores', async () => {
    console.log(
      `OpenAPI fuzz: seed ${SEED}, ${RUNS} cases per operation, stores: ${stores.map((s) => s.name).join(', ')}`,
    );
    // Every route of the table is fuzzed, as the served document describes it (and the routes outside it).
    const fuzzed = new Set(operations.map((op) => `${op.method} ${op.path}`));
    expect(routes.filter((route) => !fuzzed.has(`${route.method.toUpperCase()} ${route.path}`))).toEqual([]);
    const failures: string[] = [];
    const serverErrors = new Map<string, number>(stores.map((s) => [s.name, 0]));
    let calls = 0;
    let differences = 0;
    let accepted = 0;
    const started = Date.now();
    for (const [index, operation] of operations.entries()) {
      // First its valid input, which should reach the service (a figure of how deep the bad values go).
      const valid: FuzzCase = { operation, scheme: operation.schemes[0], mutations: [] };
      for (const c of [valid, ...fc.sample(caseArbitrary(operation), { seed: SEED + index, numRuns: RUNS })]) {
        const answers = await Promise.all(stores.map((store) => store.send(c)));
        calls += answers.length;
        if (c === valid && answers[0].status < 300) accepted++;
        if (c === valid && process.env.FUZZ_REPORT)
          console.log(`valid ${operation.operationId}: ${answers.map(outcome).join(' / ')}`);
        const problems: string[] = [];
        answers.forEach((answer, i) => {
          if (answer.status >= 500) serverErrors.set(stores[i].name, (serverErrors.get(stores[i].name) ?? 0) + 1);
          const problem = broken(answer);
          if (problem) problems.push(`${stores[i].name} answered ${problem}: ${shown(answer)}`);
        });
        if (answers.length === 2 && outcome(answers[0]) !== outcome(answers[1])) {
          differences++;
          problems.push(
            `the stores differ: SQLite ${outcome(answers[0])} ${shown(answers[0])}; PostgreSQL ${outcome(answers[1])} ${shown(answers[1])}`,
          );
        }
        if (problems.length > 0) {
          failures.push(`${describeCase(c)}\n    ${problems.join('\n    ')}`);
          if (process.env.FUZZ_REPORT)
            appendFileSync(
              process.env.FUZZ_REPORT,
              `${JSON.stringify({ operation: operation.operationId, nul: /\\u0000|%00/i.test(JSON.stringify(c.mutations)), case: describeCase(c), answers: answers.map(outcome), problems })}\n`,
            );
        }
      }
    }
    console.log(
      `OpenAPI fuzz: ${operations.length} operations (${accepted} accept their valid input), ${calls} calls; 5xx: ${[...serverErrors].map(([name, n]) => `${name} ${n}`).join(', ')}; ` +
        `answers that differ between the stores: ${differences}; failing cases: ${failures.length}; ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(failures.slice(0, 40).join('\n'), `${failures.length} failing cases (seed ${SEED})`).toBe('');
  }, 180_000);
});
