// TLS to the stores: a server on Debian's PostgreSQL and Redis that speak only TLS, with a certificate this file makes
// (its own CA; for localhost and 127.0.0.1). PostgreSQL's pg_hba.conf has `hostssl` lines alone and Redis has no
// plain port, so a server that answers has spoken TLS to both. A CA that did not sign the certificate, or a host name
// the certificate does not name, refuses the start with one line saying so, never the password or the CA's path.
import { rmSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/index.js';
import { client } from '../support/http.js';
import { type PostgresServer, postgresMissing, startPostgres } from '../support/postgres.js';
import { type RedisServer, redisMissing, startRedis } from '../support/redis.js';
import { makeDataDir } from '../support/server.js';
import { TEST_SECRET_KEY } from '../support/test-store.js';
import { makeTestCertificates, opensslMissing, type TestCertificates } from '../support/tls-certificates.js';

const missing = postgresMissing() ?? redisMissing() ?? opensslMissing();
if (missing) console.warn(`Skipping the tests of TLS to PostgreSQL and Redis: ${missing}`);

/** A password in the URLs: PostgreSQL's `trust` lines never ask for it, and no message may show it. */
const PASSWORD = 'pw-never-printed';

describe.skipIf(missing !== undefined)('TLS to PostgreSQL and Redis', () => {
  let certificates: TestCertificates;
  let postgres: PostgresServer;
  let redis: RedisServer;
  const dataDirs: string[] = [];
  beforeAll(async () => {
    certificates = makeTestCertificates();
    [postgres, redis] = await Promise.all([startPostgres({ tls: certificates }), startRedis({ tls: certificates })]);
  }, 60_000);
  afterAll(async () => {
    postgres?.stop();
    await redis?.stop();
    certificates?.remove();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A new database's URL, on `host`, with the password and these query parameters. */
  const databaseUrl = (query: Record<string, string>, host = '127.0.0.1') => {
    const url = new URL(postgres.url(postgres.createDatabase()));
    url.hostname = host;
    url.password = PASSWORD;
    url.search = new URLSearchParams(query).toString();
    return url.toString();
  };
  const verifyFull = (ca: string, host?: string) => databaseUrl({ sslmode: 'verify-full', sslrootcert: ca }, host);
  /** The test Redis's URL on `host`, trusting `ca`. */
  const redisUrl = (ca: string, host = '127.0.0.1') => {
    const url = new URL(redis.url);
    url.hostname = host;
    url.searchParams.set('tls-ca-cert-file', ca);
    return url.toString();
  };
  const start = (options: { databaseUrl: string; redisUrl?: string }) => {
    const dataDir = makeDataDir();
    dataDirs.push(dataDir);
    return startServer({ ...options, dataDir, secretKey: TEST_SECRET_KEY, port: 0, logger: pino({ level: 'silent' }) });
  };
  /** The start's error message, checked to show neither the password nor the CA file's path. */
  const refusal = async (options: { databaseUrl: string; redisUrl?: string }) => {
    const err = await start(options).then(
      async (server) => {
        await server.close();
        throw new Error('the server started');
      },
      (err: Error) => err,
    );
    expect(err.message).not.toContain(PASSWORD);
    expect(err.message).not.toContain(certificates.otherCa);
    return err.message;
  };

  it('serves the API on PostgreSQL with sslmode=verify-full and Redis over rediss://, both trusting the test CA', async () => {
    const server = await start({ databaseUrl: verifyFull(certificates.ca), redisUrl: redisUrl(certificates.ca) });
    try {
      const ready = await fetch(`${server.url}/readyz`);
      expect(await ready.json()).toEqual({
        status: 'ready',
        store: { kind: 'postgres', status: 'up' },
        realtime: { bus: 'redis', status: 'up' },
      });
      const api = client(server.url);
      const registered = await api.post('/v1/auth/register', {
        body: { email: 'tls@example.test', password: 'correct horse battery' },
      });
      expect(registered.status).toBe(201);
      const token = registered.body.token as string;
      const created = await api.post('/v1/projects', { token, body: { name: 'Over TLS' } });
      expect(created.status).toBe(201);
      const listed = await api.get('/v1/projects', { token });
      expect(listed.body.data.map((project: { name: string }) => project.name)).toEqual(['Over TLS']);
    } finally {
      await server.close();
    }
  });

  it('refuses a PostgreSQL whose certificate the CA file did not sign', async () => {
    expect(await refusal({ databaseUrl: verifyFull(certificates.otherCa) })).toMatch(
      /^Cannot use the PostgreSQL database at 127\.0\.0\.1:\d+\/test_\w+ as postgres: the server's TLS certificate is not signed by a CA trusted here \(unable to verify the first certificate; name the CA file with sslrootcert=\/path\/to\/ca\.pem in the URL\)\.$/,
    );
  });

  it('refuses a PostgreSQL without a CA file: the system CAs did not sign the certificate either', async () => {
    expect(await refusal({ databaseUrl: databaseUrl({ sslmode: 'verify-full' }) })).toMatch(
      /: the server's TLS certificate is not signed by a CA trusted here/,
    );
  });

  it('checks that the certificate names the host of the URL (verify-full)', async () => {
    expect(await refusal({ databaseUrl: verifyFull(certificates.ca, '127.0.0.2') })).toMatch(
      /^Cannot use the PostgreSQL database at 127\.0\.0\.2:\d+\/test_\w+ as postgres: the server's TLS certificate is not for the host name in the URL \(Hostname\/IP does not match certificate's altnames: IP: 127\.0\.0\.2 is not in the cert's list: 127\.0\.0\.1\)\.$/,
    );
  });

  it('says which CA file it cannot read', async () => {
    expect(await refusal({ databaseUrl: verifyFull('/nonexistent/ca.pem') })).toMatch(
      /: cannot read \/nonexistent\/ca\.pem \(named by the URL's sslrootcert, sslcert or sslkey\): ENOENT/,
    );
  });

  it('refuses a Redis whose certificate the CA file did not sign, or that is not for the host name', async () => {
    const databaseUrl = verifyFull(certificates.ca);
    expect(await refusal({ databaseUrl, redisUrl: redisUrl(certificates.otherCa) })).toMatch(
      /^Cannot use Redis at 127\.0\.0\.1:\d+: the server's TLS certificate is not signed by a CA trusted here \([^;]+; name the CA file with \?tls-ca-cert-file=\/path\/to\/ca\.pem in the rediss:\/\/ URL\)\.$/,
    );
    expect(await refusal({ databaseUrl, redisUrl: redisUrl(certificates.ca, '127.0.0.2') })).toMatch(
      /^Cannot use Redis at 127\.0\.0\.2:\d+: the server's TLS certificate is not for the host name in the URL/,
    );
  });

  it('says when Redis wants TLS and the URL is redis://, and that a CA file needs rediss://', async () => {
    const databaseUrl = verifyFull(certificates.ca);
    const plain = redis.url.replace('rediss://', 'redis://');
    expect(await refusal({ databaseUrl, redisUrl: plain })).toMatch(
      /^Cannot use Redis at 127\.0\.0\.1:\d+: the server closed the connection \(does it want TLS\? then the URL starts with rediss:\/\/\)\.$/,
    );
    expect(
      await refusal({ databaseUrl, redisUrl: redisUrl(certificates.ca).replace('rediss://', 'redis://') }),
    ).toMatch(
      /^Cannot use Redis at 127\.0\.0\.1:\d+: tls-ca-cert-file is for TLS: the URL must start with rediss:\/\/, not redis:\/\/\.$/,
    );
  });
});
