/**
 * A real load balancer in front of several server nodes, as a deployment of several nodes has one: Debian's
 * `haproxy` (`.ci/run` installs it), in the foreground as a child process, running the documented configuration
 * (docs/deployment/haproxy.cfg) with its addresses made local. It balances each request in turn over the nodes with
 * nothing sticky, passes WebSocket upgrades through, terminates TLS, and takes a node whose `/readyz` stopped
 * answering 200 out of the rotation.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type StartedChild, startChild, waitUntilReady } from './child-process.js';
import { freePort } from './wait.js';

export const HAPROXY = '/usr/sbin/haproxy';
const OPENSSL = '/usr/bin/openssl';

/** The response header naming the backend (`host:port`, as given) that served a request through the proxy. */
export const SERVED_BY = 'x-served-by';
/** How long HAProxy's statistics may take to answer. */
const STATS_MS = 2_000;

/** Why the tests that need HAProxy cannot run here, or undefined when they can. */
export function haproxyMissing(): string | undefined {
  if (!existsSync(HAPROXY)) return `HAProxy is not installed at ${HAPROXY} (apt-get install haproxy; .ci/run does)`;
  // The TLS frontend's certificate is made for the run (PostgreSQL's Debian package brings openssl along).
  if (!existsSync(OPENSSL)) return `openssl is not installed at ${OPENSSL} (apt-get install openssl)`;
  return undefined;
}

/** A backend's state as HAProxy's statistics give it: `UP`, `DOWN`, or a transition such as `UP 1/2`. */
export type BackendStates = Record<string, string>;

export interface LoadBalancer {
  /** http://127.0.0.1:port, the nodes' one address (a plain listener the tests add beside the documented one). */
  url: string;
  /** https://127.0.0.1:port, the documented TLS listener. */
  tlsUrl: string;
  /** The self-signed certificate of `tlsUrl` (PEM), for a client to trust. */
  certificate: string;
  /** Each backend's state by its `host:port`, from HAProxy's statistics. */
  backends(): Promise<BackendStates>;
  stop(): Promise<void>;
}

/** The documented configuration (docs/deployment.md shows it): what the tests run, so that it cannot drift. */
export const DOCUMENTED_CONFIG = fileURLToPath(new URL('../../docs/deployment/haproxy.cfg', import.meta.url));

/** Replaces `from`, which must occur exactly once in `text`: a documented line this file relies on moved or went. */
function replaceOnce(text: string, from: string | RegExp, to: string): string {
  const count =
    typeof from === 'string'
      ? text.split(from).length - 1
      : (text.match(new RegExp(from, `${from.flags}g`)) ?? []).length;
  if (count !== 1) throw new Error(`docs/deployment/haproxy.cfg: expected one ${from}, found ${count}`);
  return text.replace(from, to);
}

/**
 * The documented configuration with what a machine of tests changes: its listeners on loopback (the documented TLS
 * one with a certificate made for the run, and a plain one beside it that the other tests use), the nodes' addresses,
 * checks every 500 ms (250 ms while a node's state is changing) so that a killed node leaves the rotation within
 * about a second, one thread on two shared cores; and, added, a header naming the node that served each response and
 * a statistics listener. Everything else (timeouts, retries, the /readyz check, X-Forwarded-Proto) is the file's.
 */
export function testConfiguration(
  documented: string,
  ports: { tls: number; plain: number; stats: number },
  certificate: string,
  backends: string[],
): string {
  let config = replaceOnce(documented, /^global\n/m, 'global\n  nbthread 1\n');
  config = replaceOnce(
    config,
    /^ {2}bind :443 ssl crt \S+$/m,
    `  bind 127.0.0.1:${ports.tls} ssl crt ${certificate}\n  bind 127.0.0.1:${ports.plain}`,
  );
  config = replaceOnce(
    config,
    /^ {2}default-server check inter 2s fall 2 rise 2$/m,
    '  default-server check inter 500ms fastinter 250ms downinter 500ms fall 2 rise 2\n  http-response set-header X-Served-By %si:%sp',
  );
  config = replaceOnce(
    config,
    /^ {2}server node1 .*\n {2}server node2 .*\n {2}server node3 .*\n/m,
    backends.map((backend, i) => `  server node${i} ${backend}\n`).join(''),
  );
  return `${config}
listen stats
  bind 127.0.0.1:${ports.stats}
  stats enable
  stats uri /
`;
}

/** A self-signed certificate for 127.0.0.1 and its key, in one PEM file as HAProxy's `crt` takes them. */
function makeCertificate(folder: string): string {
  const [key, cert, pem] = ['key.pem', 'cert.pem', 'haproxy.pem'].map((name) => join(folder, name));
  execFileSync(
    OPENSSL,
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'].concat([
      '-keyout',
      key,
      '-out',
      cert,
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ]),
    { stdio: 'ignore' },
  );
  writeFileSync(pem, readFileSync(cert, 'utf8') + readFileSync(key, 'utf8'));
  return pem;
}

/**
 * The statistics' CSV, read by its header line: the state of each server of the `nodes` backend, by the address it
 * was given (`node<i>` is `backends[i]`; the CSV's own address column stays empty without admin rights).
 */
function parseStates(csv: string, backends: string[]): BackendStates {
  const [header, ...rows] = csv.trim().split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const [proxy, server, status] = ['pxname', 'svname', 'status'].map((name) => columns.indexOf(name));
  const states: BackendStates = {};
  for (const row of rows) {
    const fields = row.split(',');
    const node = /^node(\d+)$/.exec(fields[server]);
    if (fields[proxy] === 'nodes' && node) states[backends[Number(node[1])]] = fields[status];
  }
  return states;
}

/** Starts HAProxy on a free loopback port in front of `backends` (`host:port` each); resolves once it listens. */
export async function startHaproxy(backends: string[]): Promise<LoadBalancer> {
  const missing = haproxyMissing();
  if (missing) throw new Error(missing);
  const folder = mkdtempSync(join(tmpdir(), 'switchboard-haproxy-'));
  let proxy: StartedChild | undefined;
  try {
    const [port, tlsPort, statsPort] = [await freePort(), await freePort(), await freePort()];
    const pem = makeCertificate(folder);
    const config = join(folder, 'haproxy.cfg');
    const documented = readFileSync(DOCUMENTED_CONFIG, 'utf8');
    writeFileSync(
      config,
      testConfiguration(documented, { tls: tlsPort, plain: port, stats: statsPort }, pem, backends),
    );
    // -db: in the foreground, not a daemon, so that it is this child process and stops with it.
    proxy = startChild('haproxy', HAPROXY, ['-db', '-f', config], { cwd: folder });
    const backendStates = async () => {
      const res = await fetch(`http://127.0.0.1:${statsPort}/;csv`, { signal: AbortSignal.timeout(STATS_MS) });
      if (!res.ok) throw new Error(`HAProxy's statistics answered ${res.status}`);
      return parseStates(await res.text(), backends);
    };
    // The statistics answer once every listener is bound (HAProxy binds all before it serves any, or exits).
    await waitUntilReady(
      proxy,
      `haproxy on port ${port}`,
      async () => (await fetch(`http://127.0.0.1:${statsPort}/`, { signal: AbortSignal.timeout(STATS_MS) })).ok,
    );
    const running = proxy;
    return {
      url: `http://127.0.0.1:${port}`,
      tlsUrl: `https://127.0.0.1:${tlsPort}`,
      certificate: readFileSync(join(folder, 'cert.pem'), 'utf8'),
      backends: backendStates,
      async stop() {
        try {
          await running.stop('SIGTERM');
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    await proxy?.stop('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
    throw err;
  }
}
