import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createRoom, mintRtcToken, projectWithKeys } from '../support/factories.js';
import { client } from '../support/http.js';
import { childProcesses } from '../support/processes.js';
import { connectSignaling } from '../support/socket-client.js';

const BIN = resolve('dist/switchboard.mjs');
const work = mkdtempSync(join(tmpdir(), 'switchboard-cli-media-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('serve --rtc-media sfu runs the built media process, and stops it when it stops', async () => {
  // UDP port 0: the default, 40100, may be another test run's.
  const args = ['serve', '--port', '0', '--data-dir', work, '--rtc-media', 'sfu', '--rtc-udp-port', '0'];
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: work },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((done, fail) => {
      const look = () => {
        const match = pattern.exec(output);
        if (!match) return false;
        done(match);
        return true;
      };
      if (look()) return;
      const timer = setTimeout(() => fail(new Error(`no ${pattern} in: ${output}`)), 15_000);
      const onData = () => {
        if (!look()) return;
        clearTimeout(timer);
        child.stdout.off('data', onData);
      };
      child.stdout.on('data', onData);
    });
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit');
  try {
    const [, url] = await waitFor(/Switchboard listening on (http:\/\/[^\s"]+)/);
    // A room's first join forks the media process; it is ready once werift has loaded.
    const api = client(url);
    const { keys } = await projectWithKeys(api);
    const room = await createRoom(api, keys.development, 'media');
    expect(childProcesses(child.pid)).toEqual([]);
    const participant = connectSignaling(url, (await mintRtcToken(api, keys.development, room.id)).token);
    await participant.next('joined');
    const [, pid, udpPort] = await waitFor(/the media process is ready \(pid (\d+), media on UDP port (\d+)\)/);
    expect(Number(udpPort)).toBeGreaterThan(0);
    const [media] = childProcesses(child.pid).filter((p) => p.pid === Number(pid));
    expect(media?.command).toContain(join('dist', 'media-process.mjs'));

    child.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
    expect(existsSync(`/proc/${pid}`)).toBe(false);
  } finally {
    child.kill('SIGKILL');
  }
}, 30_000);

it('serve refuses an address it cannot announce, or an ICE server URL, at start in one line', () => {
  const refusal = (...flags: string[]) => {
    const run = spawnSync(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', work, ...flags], {
      env: { PATH: process.env.PATH, HOME: work },
      encoding: 'utf8',
      timeout: 15_000,
    });
    return { status: run.status, lines: run.stderr.trim().split('\n') };
  };
  const address = refusal('--rtc-media', 'sfu', '--rtc-announce-address', 'media.example.com');
  expect(address.status).not.toBe(0);
  expect(address.lines).toEqual([
    expect.stringContaining('--rtc-announce-address: "media.example.com" is not an IPv4'),
  ]);
  const url = refusal('--rtc-ice-servers', 'stun.example.com:3478');
  expect(url.status).not.toBe(0);
  expect(url.lines).toEqual([expect.stringContaining('--rtc-ice-servers: "stun.example.com:3478" is not a stun:')]);
});
