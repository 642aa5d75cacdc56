import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../db/connection.js';
import Database from '../../db/sqlite-driver.js';
import { exportDataDir, importArchive } from '../../server/data-archive/index.js';
import { readVersion } from '../../server/version.js';
import { expectUsageError, ok, runCli } from '../support/cli.js';
import { client } from '../support/http.js';
import { type PostgresServer, postgresMissing, startPostgres } from '../support/postgres.js';

const BIN = resolve('dist/switchboard.mjs');
const KEY = 'sb_dev_myappbackend0001.replaceThisWithYourOwnSecret0001';

const work = mkdtempSync(join(tmpdir(), 'switchboard-cli-data-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
const run = (...args: string[]) => runCli(args, { home: work });

/** `switchboard serve --port 0 …args` from the built binary, resolved once it listens. */
async function serve(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    env: { PATH: process.env.PATH, HOME: work, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no listening line; output: ${output}`)), 15_000);
    child.stdout.on('data', () => {
      const match = /Switchboard listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        done(match[1]);
      }
    });
    void exited.then((code) => fail(new Error(`exited ${code}: ${output}`)));
  });
  /** SIGTERM, then the exit code. */
  const stop = async () => {
    child.kill('SIGTERM');
    return exited;
  };
  return { url, stop, output: () => output };
}

/** A run of `serve` that is expected to fail before listening. */
const serveFails = (args: string[]) => run('serve', '--port', '0', ...args);

const signIn = async (url: string) =>
  (await client(url).post('/v1/auth/login', { body: { email: 'dev@example.com', password: 'development only' } }))
    .status;

describe('seed init and serve --seed', () => {
  const seedFile = join(work, 'switchboard.seed.json');
  const dataDir = join(work, 'seeded');

  it('writes a commented example, and will not overwrite it without --force', async () => {
    expect(ok(await run('seed', 'init', seedFile))).toContain(`Wrote ${seedFile}`);
    expect(readFileSync(seedFile, 'utf8')).toMatch(/^\/\/ A Switchboard seed/);
    const again = await run('seed', 'init', seedFile);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`error: ${seedFile} exists; pass --force to overwrite it\n`);
    ok(await run('seed', 'init', seedFile, '--force'));
  });

  it('creates the example on an empty folder, and nothing more on restart (SWITCHBOARD_SEED)', async () => {
    const first = await serve(['--data-dir', dataDir, '--seed', seedFile]);
    expect(first.output()).toContain(
      `Seed ${seedFile} applied: created 2 accounts, 1 project, 1 API key, 1 room, 1 conversation, 1 webhook endpoint.`,
    );
    expect(await signIn(first.url)).toBe(200);
    expect((await client(first.url).get('/v1/whoami', { token: KEY })).status).toBe(200);
    expect(await first.stop()).toBe(0);

    const second = await serve(['--data-dir', dataDir], { SWITCHBOARD_SEED: seedFile });
    expect(second.output()).toContain(
      `Seed ${seedFile} not applied: the data folder already holds 2 accounts and 1 project`,
    );
    expect(await second.stop()).toBe(0);
  });

  it('refuses a bad seed file, naming each bad field, before touching the data folder', async () => {
    const bad = join(work, 'bad.seed.json');
    writeFileSync(
      bad,
      JSON.stringify({
        user: { email: 'dev@example.com', password: 'short' },
        projects: [{ name: 'App', apiKeys: [{ name: 'k', environment: 'production', key: KEY }] }],
      }),
    );
    const fresh = join(work, 'never-made');
    const result = await serveFails(['--data-dir', fresh, '--seed', bad]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: ${bad} is not a valid seed; nothing was created:\n` +
        '  user.password: must be at least 8 characters\n' +
        '  projects[0].apiKeys[0].key: must be a production key: sb_prod_ then 8 to 64 letters and digits, a dot, and 16 to 128 letters and digits\n',
    );
    writeFileSync(
      bad,
      JSON.stringify({
        user: { email: 'dev@example.com', password: 'long enough' },
        projects: [{ name: 'App', apiKeys: [{ name: 'k', environment: 'production', key: KEY }] }],
      }),
    );
    expect((await serveFails(['--data-dir', fresh, '--seed', bad])).stderr).toContain(
      '  projects[0].apiKeys[0].key: must be a production key: sb_prod_',
    );
    expect(existsSync(fresh)).toBe(false);
  });

  it('in production mode, refuses a seed with secrets', async () => {
    const result = await serveFails(['--data-dir', join(work, 'prod'), '--mode', 'production', '--seed', seedFile]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('A production-mode server refuses seeds that carry secrets');
    expect(result.stderr).toContain('projects[0].apiKeys[0].key, projects[0].webhooks[0].secret');
  });
});

describe('backup, export and serve --import', () => {
  const dataDir = join(work, 'source');
  const backup = join(work, 'backup.tar.gz');
  const onExit = join(work, 'on-exit.tar.gz');

  it('backs up a running server, which export refuses to touch; --export-on-exit saves it when stopped', async () => {
    ok(await run('seed', 'init', join(work, 'source.seed.json')));
    const server = await serve([
      '--data-dir',
      dataDir,
      '--seed',
      join(work, 'source.seed.json'),
      '--export-on-exit',
      onExit,
    ]);
    const out = ok(await run('--url', server.url, 'backup', backup, '--data-dir', dataDir));
    expect(out).toMatch(new RegExp(`^Backed up ${server.url} to ${backup} \\(\\d+\\.\\d KiB\\)\\.\\n$`));
    const exported = await run('export', join(work, 'refused.tar.gz'), '--data-dir', dataDir);
    expect(exported.code).toBe(1);
    expect(exported.stderr).toContain(`a running server is using ${dataDir}; back it up through the server`);
    const wrongToken = await runCli(['--url', server.url, 'backup', join(work, 'x.tar.gz')], {
      home: work,
      env: { SWITCHBOARD_ADMIN_TOKEN: 'sbadmin_wrong' },
    });
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toMatch(/^error: SERVICE_UNAUTHENTICATED: This route needs the server's admin token/);
    expect(existsSync(join(work, 'x.tar.gz'))).toBe(false);

    expect(await server.stop()).toBe(0);
    expect(server.output()).toContain(`Exported the data folder to ${onExit}`);
    expect(ok(await run('export', join(work, 'offline.tar.gz'), '--data-dir', dataDir))).toMatch(
      new RegExp(`^Exported ${dataDir} to ${join(work, 'offline.tar.gz')} \\(2 files, `),
    );
  });

  it('starts from an archive, refusing a folder with data unless --replace', async () => {
    const restored = join(work, 'restored');
    const first = await serve(['--data-dir', restored, '--import', backup]);
    expect(first.output()).toContain(`Imported ${backup} (Switchboard `);
    expect(await signIn(first.url)).toBe(200);
    expect(await first.stop()).toBe(0);

    const refused = await serveFails(['--data-dir', restored, '--import', onExit]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `error: The data folder ${restored} already holds 2 accounts and 1 project; an import never merges into it. ` +
        'Pass --replace to replace everything in it with the archive, or choose an empty --data-dir.\n',
    );
    const replaced = await serve(['--data-dir', restored, '--import', onExit, '--replace']);
    expect(await signIn(replaced.url)).toBe(200);
    expect(await replaced.stop()).toBe(0);
  });

  it('says what is wrong with the flags', async () => {
    expectUsageError(
      await serveFails(['--data-dir', join(work, 'x'), '--replace']),
      /--replace only applies to --import <file>/,
    );
    expectUsageError(
      await serveFails(['--data-dir', join(work, 'x'), '--export-on-exit', join(work, 'missing', 'a.tar.gz')]),
      /--export-on-exit: the folder of .* does not exist/,
    );
    const missing = await serveFails(['--data-dir', join(work, 'x'), '--import', join(work, 'nope.tar.gz')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`error: cannot read the archive ${join(work, 'nope.tar.gz')}: ENOENT\n`);
  });
});

const noPostgres = postgresMissing();
if (noPostgres) console.warn(`Skipping serve --database-url: ${noPostgres}`);

describe.skipIf(noPostgres !== undefined)('moving up: serve --database-url', () => {
  const backup = join(work, 'backup.tar.gz');
  const secretKeyFile = join(work, 'secret-key');
  let postgres: PostgresServer;
  beforeAll(async () => {
    postgres = await startPostgres();
    writeFileSync(secretKeyFile, 'a-secret-key-for-the-cli-tests-0123456789abcdef\n', { mode: 0o600 });
  }, 60_000);
  afterAll(() => postgres?.stop());

  it('needs a secret key, and names an unusable database in one line without its password', async () => {
    const url = postgres.url(postgres.createDatabase());
    expectUsageError(
      await serveFails(['--data-dir', join(work, 'pg-x'), '--database-url', url]),
      /a server on PostgreSQL needs a secret key in SWITCHBOARD_SECRET_KEY or --secret-key-file: make one with `openssl rand -base64 48`/,
    );
    expectUsageError(
      await serveFails(['--data-dir', join(work, 'pg-x'), '--database-url', 'mysql://root:hunter2@db/app']),
      /--database-url must be a PostgreSQL URL, postgres:\/\/user:password@host:port\/database, not db:5432\/app as root/,
    );
    const unreachable = await serveFails([
      '--data-dir',
      join(work, 'pg-x'),
      '--database-url',
      'postgres://team:hunter2@127.0.0.1:1/switchboard',
      '--secret-key-file',
      secretKeyFile,
    ]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toBe(
      'error: Cannot use the PostgreSQL database at 127.0.0.1:1/switchboard as team: connection refused (is ' +
        'PostgreSQL running and listening there?).\n',
    );
  });

  it('imports a laptop’s archive into an empty database, refuses a second one, and backs up what it serves', async () => {
    const database = postgres.createDatabase();
    const url = postgres.url(database);
    const flags = ['--database-url', url, '--secret-key-file', secretKeyFile];
    const team = await serve(['--data-dir', join(work, 'pg-node'), ...flags, '--import', backup]);
    expect(team.output()).toContain(`Imported ${backup} (Switchboard `);
    expect(team.output()).toMatch(new RegExp(`into 127\\.0\\.0\\.1:\\d+/${database} as postgres"`));
    // The laptop's accounts, with their passwords, and their project.
    expect(await signIn(team.url)).toBe(200);
    const teamBackup = join(work, 'team-backup.tar.gz');
    ok(await run('--url', team.url, 'backup', teamBackup, '--data-dir', join(work, 'pg-node')));
    expect(await team.stop()).toBe(0);

    const refused = await serveFails(['--data-dir', join(work, 'pg-node'), ...flags, '--import', backup]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error: The database already holds 2 accounts and 1 project; an import never merges/,
    );

    // The team server's backup is the same archive: it restores into a laptop's data folder.
    const laptop = await serve(['--data-dir', join(work, 'back-on-a-laptop'), '--import', teamBackup]);
    expect(await signIn(laptop.url)).toBe(200);
    expect(await laptop.stop()).toBe(0);
  }, 60_000);

  it('says how many values held a NUL character, which it replaced by U+FFFD', async () => {
    // An older laptop's data folder, whose project name holds a NUL (written before the API refused them).
    const older = join(work, 'older-laptop');
    await importArchive(backup, older, { replace: false, switchboardVersion: readVersion() });
    const sqlite = new Database(join(older, DATABASE_FILE));
    sqlite.prepare('UPDATE projects SET name = ?').run('Laptop\u0000project');
    sqlite.close();
    const archive = join(work, 'older.tar.gz');
    await exportDataDir(older, archive, { switchboardVersion: readVersion(), createdAt: new Date() });
    const flags = ['--database-url', postgres.url(postgres.createDatabase()), '--secret-key-file', secretKeyFile];
    const team = await serve(['--data-dir', join(work, 'pg-nul'), ...flags, '--import', archive]);
    expect(team.output()).toContain(
      '1 value held a NUL character (U+0000), which PostgreSQL cannot store, replaced by U+FFFD: projects.name 1.',
    );
    expect(await team.stop()).toBe(0);
  }, 60_000);
});
