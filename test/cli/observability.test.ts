import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CliUser, expectApiError, expectUsageError, ok, runCli, startCli, useCli } from '../support/cli.js';
import { createKey, createProject, createRoom, mintRtcToken, PASSWORD, registerUser } from '../support/factories.js';
import { client } from '../support/http.js';
import { startTestServer } from '../support/server.js';
import { connectRealtime, connectSignaling, type SocketClient } from '../support/socket-client.js';

const cli = useCli();
const sockets: SocketClient[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

let owner: CliUser & { projectId: string };
let keys: { development: string; staging: string; production: string };
beforeAll(async () => {
  owner = await cli.withProject('Observed');
  keys = {
    development: (await createKey(cli.api, owner.projectId, owner.account, 'development')).key,
    staging: (await createKey(cli.api, owner.projectId, owner.account, 'staging')).key,
    production: (await createKey(cli.api, owner.projectId, owner.account, 'production')).key,
  };
});

/** What an app's backend does with its key: a conversation and a message with text in it. */
async function chat(key: string, text: string) {
  const conv = await cli.api.post('/v1/chat/conversations', {
    token: key,
    body: { name: `chat-${randomUUID()}`, createdBy: 'alice' },
  });
  expect(conv.status).toBe(201);
  const sent = await cli.api.post(`/v1/chat/conversations/${conv.body.id}/messages`, {
    token: key,
    body: { text, senderId: 'alice' },
  });
  expect(sent.status).toBe(201);
  return sent.body as { id: string };
}

describe('switchboard tail', () => {
  it('prints live events as metadata, connections and errors included, until Ctrl-C', async () => {
    const run = owner.start(['tail', '--environment', 'stg'], /Tailing staging events/);
    try {
      await run.ready;
      // A development message first: had it leaked, it would be printed before the staging events.
      await chat(keys.development, 'development words');
      const message = await chat(keys.staging, 'top secret words');
      await run.waitForStdout(new RegExp(`message\\.created {2}message\\.id=${message.id} .*message\\.senderId=alice`));

      const realtime = connectRealtime(
        cli.server.url,
        (await cli.api.post('/v1/chat/tokens', { token: keys.staging, body: { userId: 'bob' } })).body.token,
      );
      sockets.push(realtime);
      const { connectionId } = await realtime.next('connected');
      await run.waitForStdout(new RegExp(`connection\\.opened {2}connection\\.id=${connectionId} .*identity=bob`));
      realtime.close();
      await run.waitForStdout(new RegExp(`connection\\.closed {2}connection\\.id=${connectionId}`));

      expect((await cli.api.get('/v1/rooms/room_missing', { token: keys.staging })).status).toBe(404);
      await run.waitForStdout(
        /request\.failed {2}error\.id=err_\S+ .*error\.status=404 error\.code=SERVICE_ROOM_NOT_FOUND/,
      );

      const lines = run.output.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}conversation\.created {2}conversation\.id=conv_/);
      expect(run.output.stdout).not.toContain('words');
    } finally {
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(0);
    }
  }, 30_000);

  it('prints one JSON object a line with --json', async () => {
    const run = owner.start(['--json', 'tail'], /Tailing development events/);
    try {
      await run.ready;
      const room = await createRoom(cli.api, keys.development, 'tailed-room');
      await run.waitForStdout(/room\.created/);
      expect(JSON.parse(run.output.stdout.trim().split('\n')[0])).toEqual({
        type: 'room.created',
        at: expect.any(String),
        environment: 'development',
        data: { room: { id: room.id, name: 'tailed-room', createdAt: expect.any(String) } },
      });
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    }
  }, 30_000);

  it('fails with the API error for a project it cannot see, and refuses an unknown environment', async () => {
    const stranger = await cli.signedIn();
    expectApiError(await stranger.run('tail', '--project', owner.projectId), 'SERVICE_PROJECT_NOT_FOUND');
    expectUsageError(await owner.run('tail', '--environment', 'qa'), /Accepted values/);
  });
});

describe('switchboard tail across a server restart', () => {
  it('says the connection was lost, reconnects, and goes on printing', async () => {
    const first = await startTestServer();
    let server = first;
    const api = client(first.url);
    const user = await registerUser(api);
    const project = await createProject(api, user);
    const key = await createKey(api, project.id, user);
    const cliOptions = { home: cli.newHome(), env: { SWITCHBOARD_URL: first.url } };
    ok(await runCli(['login', '--email', user.email, '--password', PASSWORD], cliOptions));
    const run = startCli(['tail', '--project', project.id], cliOptions, /Tailing development events/);
    try {
      await run.ready;
      await first.close();
      await run.waitForStderr(/Connection lost; reconnecting in \d+ s/);
      server = await startTestServer({ dataDir: first.dataDir, port: first.port });
      await run.waitForStderr(/Reconnected/);
      await createRoom(client(server.url), key.key, 'after-restart');
      await run.waitForStdout(/room\.created {2}.*room\.name=after-restart/);
    } finally {
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(0);
      await server.dispose();
    }
  }, 30_000);
});

describe('switchboard connections and errors', () => {
  it('lists and shows connections and error records per environment', async () => {
    const room = await createRoom(cli.api, keys.production, 'observed-room');
    const signaling = connectSignaling(cli.server.url, (await mintRtcToken(cli.api, keys.production, room.id)).token);
    sockets.push(signaling);
    await signaling.next('joined');

    const listed = ok(await owner.run('connections', 'list', '--environment', 'PROD'));
    expect(listed).toMatch(/^ID\s+KIND\s+IDENTITY\s+ROOM\s+CONNECTED\s+DISCONNECTED\s+CLOSE\n/);
    expect(listed).toMatch(new RegExp(`conn_\\S+\\s+signaling\\s+alice\\s+${room.id}\\s+.*\\s+open\\s+-\\n`));
    const page = await owner.json('connections', 'list', '--environment', 'production', '--kind', 'signaling');
    const [connection] = page.data;
    expect(connection).toMatchObject({ kind: 'signaling', roomId: room.id, disconnectedAt: null });
    expect(ok(await owner.run('connections', 'list', '--environment', 'prod', '--kind', 'realtime'))).toBe(
      'No production connections.\n',
    );
    const shown = ok(await owner.run('connections', 'show', connection.id, '--environment', 'prod'));
    expect(shown).toContain(`Id:            ${connection.id}\n`);
    expect(shown).toContain('Disconnected:  still open\n');
    expectApiError(await owner.run('connections', 'show', connection.id), 'SERVICE_CONNECTION_NOT_FOUND');
    expectUsageError(await owner.run('connections', 'list', '--kind', 'carrier-pigeon'), /Allowed choices/);

    const failed = await cli.api.post('/v1/rooms', { token: keys.production, body: { name: '' } });
    expect(failed.status).toBe(400);
    const errors = ok(await owner.run('errors', 'list', '--environment', 'prod'));
    expect(errors).toMatch(/^ID\s+TIME\s+STATUS\s+CODE\s+ROUTE\s+CREDENTIAL\n/);
    expect(errors).toMatch(/err_\S+\s+\S+ \S+\s+400\s+SERVICE_VALIDATION_FAILED\s+POST \/v1\/rooms\s+key\n/);
    const [record] = (await owner.json('errors', 'list', '--environment', 'prod', '--limit', '1')).data;
    expect(record.requestId).toBe(failed.body.requestId);
    const detail = ok(await owner.run('errors', 'show', record.id, '--environment', 'production'));
    expect(detail).toContain(`Request:      ${failed.body.requestId}\n`);
    expect(detail).toContain(`Message:      ${failed.body.message}\n`);
    expect(await owner.json('errors', 'show', record.id, '--environment', 'prod')).toEqual(record);
    expect(ok(await owner.run('errors', 'list', '--environment', 'dev'))).toBe('No development errors.\n');
    expectApiError(await owner.run('errors', 'show', 'err_nope'), 'SERVICE_ERROR_NOT_FOUND');
    expectUsageError(await owner.run('errors', 'list', '--limit', '0'), /whole number/);
  });
});

describe('switchboard usage and diagnostics', () => {
  it('shows the month’s usage and the environment’s health, as text or JSON', async () => {
    const billing = await cli.signedIn();
    ok(await owner.run('members', 'add', billing.account.email, '--role', 'billing'));
    await chat(keys.development, 'counted');

    const usage = ok(await billing.run('usage', '--project', owner.projectId));
    expect(usage).toMatch(/^Environment:\s+development\nMonth:\s+\d{4}-\d\d \(UTC\)\nMessages:\s+[1-9]\d*\n/);
    expect(usage).toMatch(/\nConnection minutes:\s+\d+\nWebhook attempts:\s+\d+\nStorage:\s+0 bytes\n$/);
    const past = await owner.json('usage', '--month', '2025-01', '--environment', 'prod');
    expect(past).toMatchObject({ environment: 'production', period: { month: '2025-01' }, messages: 0 });
    expectUsageError(await owner.run('usage', '--month', 'January'), /YYYY-MM/);

    const diagnostics = ok(await owner.run('diagnostics', '--environment', 'dev'));
    expect(diagnostics).toMatch(/^Server version:\s+\d+\.\d+\.\d+\nMode:\s+local\nUptime:\s+\d+ /);
    expect(diagnostics).toContain('Environment:       development\n');
    expect(diagnostics).toMatch(/Open connections:\s+\d+ signaling, \d+ realtime\n/);
    expect(await owner.json('diagnostics', '--environment', 'staging')).toMatchObject({
      environment: 'staging',
      mode: 'local',
      database: { bytes: expect.any(Number) },
    });
    // BILLING reads usage, and nothing of the traffic itself.
    expectApiError(await billing.run('diagnostics', '--project', owner.projectId), 'SERVICE_PERMISSION_DENIED');
  });
});
