// The deployment that docs/deployment.md documents, run from its files (docs/deployment/): the systemd units'
// commands and environment with the built `switchboard`, the PostgreSQL preparation with psql, and HAProxy with the
// documented configuration terminating TLS. Only addresses, ports, folders and secrets are replaced.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type StartedChild, startChild, waitUntilReady } from '../support/child-process.js';
import { clusterMissing } from '../support/cluster.js';
import { type LoadBalancer, startHaproxy } from '../support/haproxy.js';
import { postgresBinaries } from '../support/postgres.js';
import { type RedisServer, startRedis } from '../support/redis.js';
import { documentedFile, readEnvironmentFile, readUnit, withFlag } from '../support/systemd-unit.js';
import { createDatabase, TEST_SECRET_KEY } from '../support/test-store.js';
import { eventually, freePort } from '../support/wait.js';

const missing = clusterMissing(inject('postgresUrl'));
if (missing) console.warn(`Skipping the documented deployment's tests: ${missing}`);

const BIN = resolve('dist/switchboard.mjs');
const INSTALLED = '/usr/local/bin/switchboard';
const START_MS = 30_000;

const folders: string[] = [];
const children: StartedChild[] = [];
function folder(prefix: string): string {
  const made = mkdtempSync(join(tmpdir(), prefix));
  folders.push(made);
  return made;
}

/** This process's environment without its SWITCHBOARD_* settings: a unit's own are all a server gets. */
function serverEnvironment(): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('SWITCHBOARD_')) base[name] = value;
  return base;
}

/** Runs a documented unit's command, the installed binary being the built one; resolves with its address. */
async function runUnit(command: string[], env: Record<string, string>): Promise<{ child: StartedChild; url: string }> {
  expect(command[0]).toBe(INSTALLED);
  const child = startChild('switchboard serve', process.execPath, [BIN, ...command.slice(1)], {
    env: { ...serverEnvironment(), ...env },
  });
  children.push(child);
  let url: string | undefined;
  await waitUntilReady(
    child,
    'the documented unit',
    async () => {
      url ??= /listening on (http:\/\/[\d.:]+)/.exec(child.output())?.[1];
      return url !== undefined && (await fetch(`${url}/readyz`)).ok;
    },
    START_MS,
  );
  return { child, url: url as string };
}

/** GET over TLS, trusting `ca`: status and headers. */
function getOverTls(url: string, ca: string): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((done, fail) => {
    request(url, { ca }, (res) => {
      res.resume();
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers }));
    })
      .on('error', fail)
      .end();
  });
}

afterAll(async () => {
  await Promise.allSettled(children.map((child) => child.stop('SIGTERM')));
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

describe.skipIf(missing !== undefined)('the documented deployment (docs/deployment/)', () => {
  it("switchboard.service: one server on SQLite in the unit's data folder, HSTS behind a TLS proxy", async () => {
    const unit = readUnit('switchboard.service');
    const dataDir = folder('switchboard-unit-');
    let command = withFlag(unit.command, '--port', String(await freePort()));
    command = withFlag(command, '--data-dir', dataDir);
    const { child, url } = await runUnit(command, {
      ...unit.environment,
      SWITCHBOARD_CACHE_DIR: folder('switchboard-cache-'),
    });
    expect(readdirSync(dataDir).length).toBeGreaterThan(0);
    // --trust-proxy loopback: a request from the proxy on this machine that says it came over TLS is a secure one.
    const overTls = await fetch(`${url}/`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(overTls.headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
    const plain = await fetch(`${url}/`);
    expect(plain.headers.get('strict-transport-security')).toBeNull();

    // Its log: one JSON object a line, an access line per request with the id its client saw.
    const project = await fetch(`${url}/v1/projects/prj_none`);
    expect(project.status).toBe(401);
    const reqId = project.headers.get('x-request-id');
    const lines = () =>
      child
        .output()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    const access = await eventually(
      async () => lines().find((line) => line.reqId === reqId),
      (line) => line !== undefined,
    );
    expect(access).toMatchObject({ msg: 'request', method: 'GET', route: '/v1/projects/{id}', status: 401 });
    expect(access?.ms).toEqual(expect.any(Number));
    expect(lines().find((line) => String(line.msg).startsWith('Switchboard listening on'))).toMatchObject({
      level: 30,
      url,
      dataDir,
    });
  });

  describe('switchboard-node.service on the prepared PostgreSQL, with Redis, behind haproxy.cfg', () => {
    let redis: RedisServer;
    let proxy: LoadBalancer;
    const nodes: string[] = [];
    beforeAll(async () => {
      const bin = postgresBinaries() as string;
      const admin = new URL(inject('postgresUrl') as string);
      const password = 'documented-deployment-password';
      // prepare-postgres.sql as the reader runs it: psql as the superuser, the password given as a variable.
      execFileSync(
        join(bin, 'psql'),
        [
          '-X',
          '-q',
          '-v',
          'ON_ERROR_STOP=1',
          '-v',
          `password=${password}`,
          '-f',
          documentedFile('prepare-postgres.sql'),
        ].concat(['-d', admin.href]),
        { stdio: 'pipe' },
      );
      redis = await startRedis();
      const shared = readEnvironmentFile('cluster.env');
      expect(Object.keys(shared).sort()).toEqual([
        'SWITCHBOARD_DATABASE_URL',
        'SWITCHBOARD_REDIS_URL',
        'SWITCHBOARD_SECRET_KEY',
      ]);
      // The documented URL with this machine's address and the password chosen above: user and database as written.
      const databaseUrl = new URL(shared.SWITCHBOARD_DATABASE_URL as string);
      databaseUrl.host = admin.host;
      databaseUrl.password = password;
      const unit = readUnit('switchboard-node.service');
      expect(unit.environmentFiles).toEqual(['/etc/switchboard/cluster.env']);
      const env = {
        ...unit.environment,
        SWITCHBOARD_CACHE_DIR: folder('switchboard-cache-'),
        SWITCHBOARD_DATABASE_URL: databaseUrl.href,
        SWITCHBOARD_SECRET_KEY: TEST_SECRET_KEY,
        SWITCHBOARD_REDIS_URL: redis.url,
      };
      for (let i = 0; i < 2; i++) {
        let command = withFlag(unit.command, '--host', '127.0.0.1');
        command = withFlag(command, '--port', String(await freePort()));
        command = withFlag(command, '--data-dir', folder('switchboard-node-'));
        // The proxy's address: HAProxy runs on this machine.
        command = withFlag(command, '--trust-proxy', '127.0.0.1');
        nodes.push(new URL((await runUnit(command, env)).url).host);
      }
      proxy = await startHaproxy(nodes);
      await eventually(
        () => proxy.backends(),
        (states) => nodes.every((node) => states[node] === 'UP'),
        10_000,
      );
    });
    afterAll(async () => {
      await proxy?.stop();
      await redis?.stop();
    });

    it("takes the nodes into rotation by their /readyz, and sends HSTS on the dashboard's page over TLS", async () => {
      const served = new Set<string>();
      for (let i = 0; i < 4; i++) {
        const page = await getOverTls(`${proxy.tlsUrl}/`, proxy.certificate);
        expect(page.status).toBe(200);
        // Set by the documented frontend's X-Forwarded-Proto, trusted by the documented --trust-proxy.
        expect(page.headers['strict-transport-security']).toMatch(/max-age=31536000/);
        served.add(String(page.headers['x-served-by']));
      }
      expect([...served].sort()).toEqual([...nodes].sort());
      expect((await getOverTls(`${proxy.tlsUrl}/readyz`, proxy.certificate)).status).toBe(200);
    });
  });

  it('moves from one server to several as documented: Redis first, then the new node, which the first logs', async () => {
    const unit = readUnit('switchboard-node.service');
    const databaseUrl = await createDatabase(inject('postgresUrl') as string);
    const commandOn = async (port: number) =>
      withFlag(
        withFlag(
          withFlag(withFlag(unit.command, '--host', '127.0.0.1'), '--port', String(port)),
          '--data-dir',
          folder('switchboard-node-'),
        ),
        '--trust-proxy',
        '127.0.0.1',
      );
    const alone = {
      ...unit.environment,
      SWITCHBOARD_CACHE_DIR: folder('switchboard-cache-'),
      SWITCHBOARD_DATABASE_URL: databaseUrl,
      SWITCHBOARD_SECRET_KEY: TEST_SECRET_KEY,
    };
    const [firstPort, secondPort] = [await freePort(), await freePort()];
    const started = children.length;
    const first = await runUnit(await commandOn(firstPort), alone);

    // A second node without Redis stops at start, and says why.
    const refused = startChild(
      'switchboard serve',
      process.execPath,
      [BIN, ...(await commandOn(secondPort)).slice(1)],
      {
        env: { ...serverEnvironment(), ...alone },
      },
    );
    children.push(refused);
    expect((await refused.exited).code).toBe(1);
    expect(refused.output()).toContain('Another Switchboard server is running on this database');

    // 1. Redis, and the running server restarted with it. 2. The new node, with the same three settings.
    const redis = await startRedis();
    try {
      const together = { ...alone, SWITCHBOARD_REDIS_URL: redis.url };
      await first.child.stop('SIGTERM');
      const restarted = await runUnit(await commandOn(firstPort), together);
      await runUnit(await commandOn(secondPort), together);
      const joined = await eventually(
        async () =>
          restarted.child
            .output()
            .split('\n')
            .filter((line) => line.startsWith('{'))
            .map((line) => JSON.parse(line) as { msg: string; node?: { port: number } })
            .filter((line) => line.msg === 'a node joined'),
        (lines) => lines.length === 1,
        10_000,
      );
      expect(joined[0]?.node?.port).toBe(secondPort);
    } finally {
      await Promise.allSettled(children.slice(started).map((child) => child.stop('SIGTERM')));
      await redis.stop();
    }
  }, 60_000);
});
