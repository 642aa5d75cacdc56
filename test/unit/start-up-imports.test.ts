import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The metafile of `entry` bundled as the server is, in memory. */
async function bundleOf(entry: string): Promise<Metafile> {
  const { metafile } = await build({
    entryPoints: [entry],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    outdir: 'out',
    metafile: true,
    platform: 'node',
    format: 'esm',
    external: ['better-sqlite3', 'better-sqlite3-node20', 'electron'],
    logLevel: 'silent',
  });
  return metafile;
}

/**
 * The files `entry` loads before its code runs, its static imports transitively (dynamic imports left out), and
 * the Node built-in modules among them.
 */
async function staticGraph(entry: string): Promise<Set<string>> {
  const { inputs } = await bundleOf(entry);
  const seen = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imported of inputs[file]?.imports ?? []) {
      if (imported.kind === 'dynamic-import') continue;
      if (!imported.external) pending.push(imported.path);
      else if (imported.path.startsWith('node:')) seen.add(imported.path);
    }
  }
  return seen;
}

const packageOf = (file: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];

const LOADED_LATER = ['server/runtime.ts', 'server/services.ts', 'server/routes.ts', 'server/api-router.ts'];

/** What of the runtime and its libraries `entry` loads before its code runs. */
async function loadedTooSoon(entry: string): Promise<string[]> {
  const graph = await staticGraph(entry);
  expect(graph.has('db/connection.ts'), `${entry} starts a server`).toBe(true);
  return [...graph].filter(
    (file) => ['zod', 'ws', 'jose'].includes(packageOf(file) ?? '') || LOADED_LATER.includes(file),
  );
}

describe('what a server loads before it listens', () => {
  // serve → first /healthz is a start-up figure of issue 15 (bench/startup.ts): the runtime, the route table and
  // their libraries load after listening (server/runtime.ts). An import that pulls one of them back is caught here.
  it('leaves out the runtime, the route table, zod, ws and jose', async () => {
    expect(await loadedTooSoon('server/start-server.ts')).toEqual([]);
  });

  it('is the same in the desktop app, whose window waits for its server', async () => {
    expect(await loadedTooSoon('main/main.ts')).toEqual([]);
  });
});

describe('what the runtime loads before the first API answer', () => {
  // serve → first API answer is a figure of issue 28: ws, with the https, tls and zlib it brings, loads with the
  // first WebSocket upgrade (server/http/socket-endpoint.ts), not with the runtime.
  it('leaves out ws', async () => {
    const graph = await staticGraph('server/runtime.ts');
    expect(graph.has('server/http/socket-endpoint.ts'), 'the runtime makes the socket endpoints').toBe(true);
    expect([...graph].filter((file) => packageOf(file) === 'ws')).toEqual([]);
  });
});

describe('what a server that does not trace loads of OpenTelemetry', () => {
  // The SDK loads only when an OTEL_* variable turns tracing on (server/tracing/tracing.ts): ≈100 ms of imports here.
  it('nothing, before listening or with its runtime', async () => {
    const graphs = [await staticGraph('server/start-server.ts'), await staticGraph('server/runtime.ts')];
    const loaded = graphs.flatMap((graph) =>
      [...graph].filter((file) => packageOf(file)?.startsWith('@opentelemetry/')),
    );
    expect(loaded).toEqual([]);
  });
});

describe('what the runtime makes of zod before the first API answer', () => {
  // Node.js 20 parses every byte the runtime loads after listening (it has no compile cache), and zod was the largest
  // part: a namespace import (`import * as z from 'zod'`) lets the bundle leave out what no code calls, 391 → 210 KB.
  // `import { z }` (which Biome refuses) or `z` handed around as a value brings all of it back.
  it('bundles only the zod the server calls', async () => {
    const { outputs } = await bundleOf('server/runtime.ts');
    const zodBytes = Object.values(outputs)
      .flatMap((output) => Object.entries(output.inputs))
      .filter(([file]) => packageOf(file) === 'zod')
      .reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
    expect(zodBytes).toBeGreaterThan(100_000);
    expect(zodBytes).toBeLessThan(300_000);
  });

  // Answers, bodies, queries and the parts they share are `z.lazy` (server/shared/schemas.ts): loading the runtime
  // builds ≈200 zod objects, nearly all of them the lazies' own wrappers, where it built ≈1,800. A module that builds
  // its schemas at load again shows here.
  it('builds few schemas when the runtime loads', async () => {
    let built = 0;
    z.config({ postProcessor: () => built++ });
    try {
      await import('../../server/runtime.js');
    } finally {
      z.config({ postProcessor: undefined });
    }
    expect(built).toBeGreaterThan(0);
    expect(built).toBeLessThan(250);
  });
});

describe('what every CLI command loads before it runs', () => {
  // `switchboard --help` against `node -e 0` is a figure of issue 15: a command loads what it alone needs when run.
  it('leaves out the server, and the HTTP server and crypto of `webhooks listen`', async () => {
    const graph = await staticGraph('cli/main.ts');
    const tooSoon = [...graph].filter(
      (file) =>
        ['server/start-server.ts', 'db/connection.ts', 'node:http', 'node:crypto'].includes(file) ||
        ['express', 'drizzle-orm'].includes(packageOf(file) ?? ''),
    );
    expect(tooSoon).toEqual([]);
  });
});
