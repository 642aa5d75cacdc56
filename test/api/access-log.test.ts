// The access log: a line per request as `serve` writes it (pino's JSON), or only some, as --access-log asks.
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { AccessLogSetting } from '../../server/http/access-log.js';
import { startTestServer } from '../support/server.js';
import { eventually } from '../support/wait.js';

interface Line {
  msg: string;
  reqId?: string;
  method?: string;
  route?: string | null;
  status?: number;
  ms?: number;
}

/** A server whose log lines are kept, parsed; the access log as `setting` asks. */
async function serverLogging(setting: AccessLogSetting) {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Line);
      done();
    },
  });
  const server = await startTestServer({ logger: pino({ level: 'info' }, sink), accessLog: setting });
  const requests = () => lines.filter((line) => line.msg === 'request');
  return { server, requests };
}

describe('the access log', () => {
  it('has a line per request: its id, method, route template, status and duration, never the path or query', async () => {
    const { server, requests } = await serverLogging('all');
    try {
      const found = await fetch(`${server.url}/healthz`);
      const missing = await fetch(`${server.url}/v1/projects/prj_secret?token=hidden`);
      const unknown = await fetch(`${server.url}/metrics`);
      const logged = await eventually(
        async () => requests(),
        (lines) => lines.length >= 3,
      );
      expect(logged.find((line) => line.reqId === found.headers.get('x-request-id'))).toMatchObject({
        method: 'GET',
        route: '/healthz',
        status: 200,
        ms: expect.any(Number),
      });
      expect(logged.find((line) => line.reqId === missing.headers.get('x-request-id'))).toMatchObject({
        route: '/v1/projects/{id}',
        status: 401,
      });
      expect(logged.find((line) => line.reqId === unknown.headers.get('x-request-id'))).toMatchObject({
        route: null,
        status: 404,
      });
      expect(JSON.stringify(logged)).not.toMatch(/prj_secret|hidden/);
    } finally {
      await server.dispose();
    }
  });

  it('keeps only error answers with `errors` or a fraction of 0, and nothing with `off`', async () => {
    for (const setting of ['errors', 0] as const) {
      const { server, requests } = await serverLogging(setting);
      try {
        await fetch(`${server.url}/healthz`);
        const refused = await fetch(`${server.url}/v1/whoami`);
        await eventually(
          async () => requests(),
          (lines) => lines.length >= 1,
        );
        expect(requests().map((line) => line.reqId)).toEqual([refused.headers.get('x-request-id')]);
      } finally {
        await server.dispose();
      }
    }
    const { server, requests } = await serverLogging('off');
    try {
      await fetch(`${server.url}/v1/whoami`);
      await fetch(`${server.url}/healthz`);
      expect(requests()).toEqual([]);
    } finally {
      await server.dispose();
    }
  });
});
