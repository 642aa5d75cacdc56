import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

// Node's own timers enforce these limits, so this test uses short real ones (no manual clock can move them); each
// wait is for the server to act, bounded by the test's timeout, never a sleep.
const LIMITS = { headersTimeoutMs: 400, requestTimeoutMs: 800, keepAliveTimeoutMs: 300, maxConnections: 4 };

/** A raw TCP connection to the server, with everything it received. */
async function open(server: TestServer): Promise<{ socket: Socket; received: () => string; closed: Promise<unknown> }> {
  const socket = connect(server.port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk) => {
    text += chunk.toString();
  });
  const closed = once(socket, 'close');
  await once(socket, 'connect');
  return { socket, received: () => text, closed };
}

describe('a server facing a network: slow and idle clients cannot pin it', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ security: { http: LIMITS } });
  });
  afterAll(() => server.dispose());

  it('closes a connection whose headers never finish (slowloris) with 408', async () => {
    const client = await open(server);
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n');
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("answers what Node's HTTP parser refuses as any error: a code and a request id", async () => {
    const tooLong = await fetch(`${server.url}/v1/rooms/${'x'.repeat(17_000)}`);
    expect(tooLong.status).toBe(431);
    const body = (await tooLong.json()) as { requestId: string };
    expect(body).toEqual({
      code: 'SERVICE_BAD_REQUEST',
      message: expect.stringContaining('16 KB'),
      requestId: expect.stringMatching(/^req_/),
    });
    expect(tooLong.headers.get('x-request-id')).toBe(body.requestId);

    const client = await open(server);
    client.socket.write('GET /v1/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n');
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*\r\n\r\n\{"code":"SERVICE_BAD_REQUEST",/);
  });

  it('closes a connection whose body never finishes', async () => {
    const client = await open(server);
    client.socket.write(
      'POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"em',
    );
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes an idle keep-alive connection after its answer', async () => {
    const client = await open(server);
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('refuses connections past the bound, and takes new ones once others close', async () => {
    const held = await Promise.all(Array.from({ length: LIMITS.maxConnections }, () => open(server)));
    const extra = await open(server);
    await extra.closed;
    expect(extra.received()).toBe('');
    for (const client of held) client.socket.destroy();
    await Promise.all(held.map((client) => client.closed));
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
  });
});
