/**
 * A real load balancer in front of several server nodes, as a deployment of several nodes has one: Debian's
 * `haproxy` (`.ci/run` installs it), in the foreground as a child process, with a configuration written to a
 * temporary folder. It balances each request in turn over the nodes with nothing sticky, passes WebSocket upgrades
 * through, and takes a node that stopped answering `/healthz` out of the rotation.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StartedChild, startChild, waitUntilReady } from './child-process.js';
import { freePort } from './wait.js';

export const HAPROXY = '/usr/sbin/haproxy';

/** The response header naming the backend (`host:port`, as given) that served a request through the proxy. */
export const SERVED_BY = 'x-served-by';
/** How long HAProxy's statistics may take to answer. */
const STATS_MS = 2_000;

/** Why the tests that need HAProxy cannot run here, or undefined when they can. */
export function haproxyMissing(): string | undefined {
  return existsSync(HAPROXY)
    ? undefined
    : `HAProxy is not installed at ${HAPROXY} (apt-get install haproxy; .ci/run does)`;
}

/** A backend's state as HAProxy's statistics give it: `UP`, `DOWN`, or a transition such as `UP 1/2`. */
export type BackendStates = Record<string, string>;

export interface LoadBalancer {
  /** http://127.0.0.1:port, the nodes' one address. */
  url: string;
  /** Each backend's state by its `host:port`, from HAProxy's statistics. */
  backends(): Promise<BackendStates>;
  stop(): Promise<void>;
}

/**
 * The configuration: health checks every 500 ms (250 ms while a node's state is changing), two failures to go down,
 * so that a killed node leaves the rotation within about a second; two successes to come back. A request that could
 * not reach its node (refused: the node is dead, the checks have not noticed yet) is sent to another; so is a GET,
 * HEAD or OPTIONS whose node closed the connection without a word (a reused connection to a node killed since),
 * never a write, which the dead node may have done. A check has 2 s to be answered (a node slowed by a busy machine
 * is not a dead one; a dead one refuses at once). `timeout tunnel` keeps a quiet WebSocket open for an hour.
 */
function configuration(port: number, statsPort: number, backends: string[]): string {
  return `global
  maxconn 1000
  nbthread 1

defaults
  mode http
  timeout connect 1s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  timeout http-request 10s
  timeout check 2s
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response

frontend switchboard
  bind 127.0.0.1:${port}
  option forwardfor
  default_backend nodes

backend nodes
  balance roundrobin
  option httpchk
  http-check send meth GET uri /healthz
  http-check expect status 200
  http-request disable-l7-retry unless METH_GET || METH_OPTIONS
  http-response set-header X-Served-By %si:%sp
  default-server check inter 500ms fastinter 250ms downinter 500ms fall 2 rise 2
${backends.map((backend, i) => `  server node${i} ${backend}`).join('\n')}

listen stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /
`;
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
    const [port, statsPort] = [await freePort(), await freePort()];
    const config = join(folder, 'haproxy.cfg');
    writeFileSync(config, configuration(port, statsPort, backends));
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
