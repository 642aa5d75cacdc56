/**
 * The single executable (`npm run build:binary`), built once for this file and run as a user of it would: from an
 * empty folder outside the repository, with a PATH in which nothing (so no `node`) can be found, and its own HOME.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connected, gathered, newClient } from '../media/werift-client.js';
import { createRoom, mintRtcToken, PASSWORD, projectWithKeys, registerUser } from '../support/factories.js';
import { client } from '../support/http.js';
import { childProcesses } from '../support/processes.js';
import { connectSignaling } from '../support/socket-client.js';

const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

const root = mkdtempSync(join(tmpdir(), 'switchboard-binary-test-'));
const binary = join(root, 'bin', 'switchboard');
const home = join(root, 'home');
const dataDir = join(root, 'data');
const workDir = join(root, 'work');
/** A PATH that finds nothing: the executable must need no other program. */
const emptyPath = join(root, 'empty-path');
const env = { PATH: emptyPath, HOME: home, SWITCHBOARD_DATA_DIR: dataDir };
const children: ChildProcess[] = [];

beforeAll(async () => {
  for (const folder of [home, workDir, emptyPath]) mkdirSync(folder, { recursive: true });
  const started = performance.now();
  const { stderr } = await new Promise<{ stderr: string }>((resolve, reject) =>
    execFile(process.execPath, ['--import', 'tsx', 'build/binary.ts', binary], (err, _stdout, stderr) =>
      err ? reject(new Error(`npm run build:binary failed:\n${stderr}`)) : resolve({ stderr }),
    ),
  );
  console.log(`${stderr.trim().split('\n').at(-1)} (${((performance.now() - started) / 1000).toFixed(1)} s here)`);
}, 180_000);

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

/** Runs `switchboard …args` to its end. */
function run(args: string[], extraEnv: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(binary, args, { cwd: workDir, env: { ...env, ...extraEnv } }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Starts `switchboard serve --port 0 …args` and resolves with its URL once it listens. */
async function serve(extraEnv: Record<string, string> = {}, args: string[] = []) {
  const child = spawn(binary, ['serve', '--port', '0', ...args], {
    cwd: workDir,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /Switchboard listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  /** Sends SIGTERM and resolves with the exit code and how long it took. */
  const stop = async () => {
    const started = performance.now();
    const exit = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = await exit;
    return { code: code as number | null, ms: performance.now() - started, output };
  };
  return { url, stop, pid: child.pid as number };
}

describe('the single executable', () => {
  it('says the package version', async () => {
    const result = await run(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });

  it('serves health, the home page, the offline docs and the API; a client command works; data survives a restart', async () => {
    const first = await serve();
    const api = client(first.url);
    expect((await api.get('/healthz')).body).toEqual({ status: 'ok', version: VERSION, mode: 'local' });
    const home = await api.get('/');
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/^text\/html/);
    expect(home.body).toMatch(/^<!doctype html>/i);
    // The dashboard it carries (npm test builds dist/renderer before this file's executable, for the CLI tests).
    const script = /<script type="module"[^>]* src="(\/assets\/[^"]+\.js)"/.exec(home.body as string)?.[1];
    if (existsSync('dist/renderer/index.html')) {
      expect(script, 'the dashboard page').toBeDefined();
      const asset = await fetch(first.url + script);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toContain('immutable');
    }

    const docs = await api.get('/docs');
    expect(docs.status).toBe(200);
    const scripts = [...(docs.body as string).matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts).toEqual(['/docs/scalar.js', '/docs/start.js']);
    for (const script of scripts) {
      const res = await fetch(first.url + script);
      expect(res.status, script).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/javascript/);
    }
    expect(Number((await fetch(`${first.url}/docs/scalar.js`)).headers.get('content-length'))).toBeGreaterThan(1e6);
    expect((await api.get('/openapi.json')).body.openapi).toBe('3.1.0');

    const owner = await registerUser(api);
    const project = await api.post('/v1/projects', { token: owner.token, body: { name: 'Carried along' } });
    expect(project.status).toBe(201);
    const cliEnv = { SWITCHBOARD_URL: first.url };
    expect(await run(['login', '--email', owner.email, '--password', PASSWORD], cliEnv)).toMatchObject({
      code: 0,
      stdout: `Signed in to ${first.url} as ${owner.email}.\n`,
    });
    const listed = await run(['projects', 'list'], cliEnv);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(project.body.id);

    const stopped = await first.stop();
    expect(stopped.code, stopped.output).toBe(0);
    expect(stopped.ms).toBeLessThan(5000);
    expect(stopped.output).toContain('Received SIGTERM, shutting down');

    const second = await serve();
    const again = await client(second.url).get('/v1/projects', { token: owner.token });
    expect(again.status).toBe(200);
    expect(again.body.data.map((p: { id: string }) => p.id)).toEqual([project.body.id]);
    expect((await second.stop()).code).toBe(0);
  });

  it('backs up a running server, exports a stopped one, imports an archive and applies a seed', async () => {
    const folder = join(root, 'data-commands');
    const env = { SWITCHBOARD_DATA_DIR: join(folder, 'source') };
    const source = await serve(env);
    const owner = await registerUser(client(source.url));
    const project = await client(source.url).post('/v1/projects', { token: owner.token, body: { name: 'Saved' } });
    const backup = await run(['backup', join(folder, 'backup.tar.gz')], { ...env, SWITCHBOARD_URL: source.url });
    expect(backup.code, backup.stderr).toBe(0);
    expect(statSync(join(folder, 'backup.tar.gz')).size).toBeGreaterThan(0);
    expect((await source.stop()).code).toBe(0);
    const exported = await run(['export', join(folder, 'export.tar.gz')], env);
    expect(exported.code, exported.stderr).toBe(0);

    for (const archive of ['backup.tar.gz', 'export.tar.gz']) {
      const restored = await serve({ SWITCHBOARD_DATA_DIR: join(folder, `from-${archive}`) }, [
        '--import',
        join(folder, archive),
      ]);
      const projects = await client(restored.url).get('/v1/projects', { token: owner.token });
      expect(
        projects.body.data.map((p: { id: string }) => p.id),
        archive,
      ).toEqual([project.body.id]);
      expect((await restored.stop()).code).toBe(0);
    }

    const seedFile = join(folder, 'switchboard.seed.json');
    expect((await run(['seed', 'init', seedFile])).code).toBe(0);
    const seeded = await serve({ SWITCHBOARD_DATA_DIR: join(folder, 'seeded') }, ['--seed', seedFile]);
    const key = /"key": "(sb_dev_[^"]+)"/.exec(readFileSync(seedFile, 'utf8'))?.[1];
    const rooms = await client(seeded.url).get('/v1/rooms', { token: key });
    expect(rooms.status).toBe(200);
    const stopped = await seeded.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.output).toMatch(/Seed .* applied: created/);
  }, 60_000);

  it('is its own media process: serve --rtc-media sfu answers a publish, connects it, and stops the process with it', async () => {
    const server = await serve({ SWITCHBOARD_DATA_DIR: join(root, 'media') }, [
      '--rtc-media',
      'sfu',
      '--rtc-udp-port',
      '0',
    ]);
    const api = client(server.url);
    const { keys } = await projectWithKeys(api);
    const room = await createRoom(api, keys.development, 'binary-media');
    const socket = connectSignaling(server.url, (await mintRtcToken(api, keys.development, room.id)).token);
    const pc = newClient();
    try {
      await socket.next('joined');
      pc.addTransceiver('audio', { direction: 'sendonly' });
      await pc.setLocalDescription(await pc.createOffer());
      socket.send({ type: 'publish', sdp: await gathered(pc) });
      const { sdp } = await socket.next('publish_answer', 15_000);
      expect(sdp).toMatch(/^m=audio [1-9]/m);
      await pc.setRemoteDescription({ type: 'answer', sdp });
      await connected(pc);
      const media = childProcesses(server.pid);
      expect(media.map(({ command }) => command)).toEqual([expect.stringContaining('switchboard-media-process')]);

      const stopped = await server.stop();
      expect(stopped.code, stopped.output).toBe(0);
      expect(existsSync(`/proc/${media[0].pid}`)).toBe(false);
    } finally {
      socket.socket.terminate();
      await pc.close();
    }
  }, 60_000);

  it('unpacks what it carries once, into a cache folder named by version and content, and nothing into its folder', () => {
    const cache = join(home, '.cache', 'switchboard');
    const [folder, ...others] = readdirSync(cache);
    expect(others).toEqual([]);
    expect(folder).toMatch(new RegExp(`^${VERSION.replaceAll('.', '\\.')}-[0-9a-f]{16}$`));
    expect(statSync(join(cache, folder, 'better_sqlite3.node')).size).toBeGreaterThan(0);
    expect(readdirSync(join(cache, folder, 'migrations')).filter((name) => name.endsWith('.sql')).length).toBe(
      readdirSync('db/migrations').filter((name) => name.endsWith('.sql')).length,
    );
    // The dashboard's build, when there was one to carry (see build/binary.ts).
    const filesUnder = (folder: string) =>
      existsSync(folder) ? readdirSync(folder, { recursive: true }).map(String).sort() : [];
    expect(filesUnder(join(cache, folder, 'renderer'))).toEqual(filesUnder(join('dist', 'renderer')));
    expect(readdirSync(workDir)).toEqual([]);
    expect(readdirSync(dataDir)).toContain('switchboard.db');
  });

  it('starts twice at once on an empty cache folder (SWITCHBOARD_CACHE_DIR): one unpacks, neither sees half the files', async () => {
    const cache = join(root, 'shared-cache');
    const servers = await Promise.all(
      ['a', 'b'].map((name) => serve({ SWITCHBOARD_CACHE_DIR: cache, SWITCHBOARD_DATA_DIR: join(root, name) })),
    );
    for (const server of servers) expect((await client(server.url).get('/docs/scalar.js')).status).toBe(200);
    for (const server of servers) expect((await server.stop()).code).toBe(0);
    expect(readdirSync(cache)).toEqual([expect.stringMatching(/^\d+\.\d+\.\d+.*-[0-9a-f]{16}$/)]);
  });
});
