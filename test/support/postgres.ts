/**
 * A real PostgreSQL for the tests, never a stand-in: Debian's `postgresql` server (`.ci/run` installs it), started in
 * a temporary folder on a free loopback port, with durability off (a test's data is thrown away). initdb refuses to
 * run as root, so there the server runs as the `postgres` user that the package creates.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const INSTALL = '/usr/lib/postgresql';

/** The folder of the newest installed server's programs (initdb, pg_ctl, psql), or undefined. */
export function postgresBinaries(): string | undefined {
  if (!existsSync(INSTALL)) return undefined;
  const versions = readdirSync(INSTALL)
    .filter((version) => existsSync(join(INSTALL, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(INSTALL, versions[0], 'bin');
}

/** Why the PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresMissing(): string | undefined {
  return postgresBinaries()
    ? undefined
    : "PostgreSQL's server is not installed (apt-get install postgresql; .ci/run does)";
}

export interface PostgresServer {
  /** A connection URL, for the database `database` (default `postgres`). */
  url(database?: string): string;
  /** Runs SQL (statements or a file) with psql and answers its output: rows one a line, columns split by `|`. */
  psql(input: { sql: string } | { file: string }, database?: string): string;
  /** A new empty database; answers its name. */
  createDatabase(): string;
  /** Stops the server, every connection cut as in a failover (its data kept), until `resume`. */
  pause(): void;
  /** Starts the paused server again, on the same port. */
  resume(): void;
  stop(): void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface PostgresStartOptions {
  /**
   * Serve TLS with this certificate and key (PEM files), and only TLS over TCP: pg_hba.conf has `hostssl` lines alone.
   * It then listens on 127.0.0.2 too, a loopback address that the test certificates do not name.
   */
  tls?: { cert: string; key: string };
}

export async function startPostgres(startOptions: PostgresStartOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinaries();
  if (!bin) throw new Error(postgresMissing());
  const folder = mkdtempSync(join(tmpdir(), 'switchboard-postgres-'));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot
    ? ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' })))
    : undefined;
  /** Gives a file or folder to the server's user. */
  const own = (path: string) => owner && chownSync(path, owner[0], owner[1]);
  own(folder);
  /** Runs a server program, as `postgres` where the tests run as root. */
  const server = (program: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, program), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, program), args, { stdio: 'pipe' });
  const data = join(folder, 'data');
  const port = await freePort();
  server('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  let options = `-p ${port} -k ${folder} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  if (startOptions.tls) {
    // PostgreSQL refuses a key file that others may read, or that is not its user's (or root's).
    const [cert, key] = [join(folder, 'server.crt'), join(folder, 'server.key')];
    copyFileSync(startOptions.tls.cert, cert);
    copyFileSync(startOptions.tls.key, key);
    chmodSync(key, 0o600);
    for (const path of [cert, key]) own(path);
    writeFileSync(
      join(data, 'pg_hba.conf'),
      'local all all trust\nhostssl all all 127.0.0.1/32 trust\nhostssl all all 127.0.0.2/32 trust\n',
    );
    options += ` -c listen_addresses=127.0.0.1,127.0.0.2 -c ssl=on -c ssl_cert_file=${cert} -c ssl_key_file=${key}`;
  } else {
    options += ' -c listen_addresses=127.0.0.1';
  }
  server('pg_ctl', ['-D', data, '-l', join(folder, 'server.log'), '-o', options, '-w', 'start']);

  let databases = 0;
  const psql: PostgresServer['psql'] = (input, database = 'postgres') =>
    execFileSync(
      join(bin, 'psql'),
      [
        '-X',
        '-q',
        '-A',
        '-t',
        '-v',
        'ON_ERROR_STOP=1',
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        'postgres',
        '-d',
        database,
        ...('sql' in input ? ['-c', input.sql] : ['-f', input.file]),
      ],
      { encoding: 'utf8', stdio: 'pipe' },
    );
  return {
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    psql,
    createDatabase() {
      const name = `test_${process.pid}_${++databases}`;
      psql({ sql: `CREATE DATABASE ${name}` });
      return name;
    },
    pause() {
      // `fast`, not `immediate`: this server acknowledges commits before flushing them (synchronous_commit=off, for
      // speed), so only a clean stop keeps what it acknowledged, as a real server's defaults always do.
      server('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    resume() {
      server('pg_ctl', ['-D', data, '-l', join(folder, 'server.log'), '-o', options, '-w', 'start']);
    },
    stop() {
      try {
        server('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
