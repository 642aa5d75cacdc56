// `@switchboard/sdk` in a user's Node.js backend: packed, installed from its tarball into a fresh project outside the
// repository, type-checked with `strict` and run against a server, as an app would. Nothing the project loads or
// type-checks comes from the repository.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ConsoleClient } from '../../sdk/index.js';
import { serverClient } from '../support/sdk-keys.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { type FreshProject, freshProject, isInside, REPOSITORY } from './fresh-project.js';

/** The app's backend: `api <baseUrl> <apiKey>` calls Switchboard, `verify <secret> <header> <body>` a delivery. */
const BACKEND = `
import { ChatClient, type RealtimeMessage, type Room, ServerClient, SwitchboardError } from '@switchboard/sdk';
import { verifyWebhook } from '@switchboard/sdk/node';

// The project has no @types/node (installing it would need the registry): what this program reads of its process.
declare const process: { argv: string[] };

const [command, ...args] = process.argv.slice(2);

if (command === 'api') {
  const [baseUrl, apiKey] = args;
  const server = new ServerClient({ baseUrl, apiKey });
  const room: Room = await server.rooms.create({ name: 'standup' });
  const conversation = await server.conversations.create({
    name: 'general',
    members: [{ userId: 'alice' }, { userId: 'bob' }],
    createdBy: 'alice',
  });
  const { token } = await server.chatTokens.create({ userId: 'bob' });
  const chat = new ChatClient({ baseUrl, token });
  const received = new Promise<RealtimeMessage>((resolve) => {
    chat.on('message.created', (event) => resolve(event.data.message));
  });
  await chat.connect();
  await server.messages.send(conversation.id, { senderId: 'alice', text: 'hello bob' });
  const fromAlice = await received;
  const sent = await chat.messages.send(conversation.id, { text: 'hi alice' });
  let missingRoom = '';
  try {
    await server.rooms.get('room_missing');
  } catch (err) {
    if (err instanceof SwitchboardError) missingRoom = \`\${err.status} \${err.code}\`;
  }
  chat.close();
  console.log(JSON.stringify({ room: room.name, fromAlice: fromAlice.text, sent: sent.senderId, missingRoom }));
} else if (command === 'verify') {
  const [secret, header, body] = args;
  console.log(JSON.stringify({ genuine: verifyWebhook(secret, header, body), altered: verifyWebhook(secret, header, \`\${body} \`) }));
}

// Never called: the compiler must refuse these, or the package's types would be \`any\`.
export function typeErrors(server: ServerClient): void {
  // @ts-expect-error a room has a name, not a title
  void server.rooms.create({ title: 'standup' });
  // @ts-expect-error a room's name is a string
  const name: number = ({} as Room).name;
  void name;
}
`;

/** The same package from a CommonJS module of the project: TypeScript reads the declarations of `require`. */
const REQUIRING_MODULE = `
import { type Room, ServerClient } from '@switchboard/sdk';
import { verifyWebhook } from '@switchboard/sdk/node';

export function createRoom(baseUrl: string, apiKey: string): Promise<Room> {
  return new ServerClient({ baseUrl, apiKey }).rooms.create({ name: 'from CommonJS' });
}
export const verify: typeof verifyWebhook = verifyWebhook;
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022', 'DOM'],
    types: [],
    skipLibCheck: false,
    outDir: 'out',
  },
  files: ['backend.ts', 'requiring.cts'],
};

/** Node.js 20 has WebSocket behind a flag; 22 and later have it by default. */
const NODE_FLAGS = 'WebSocket' in globalThis ? [] : ['--experimental-websocket'];

describe('@switchboard/sdk installed in a fresh Node.js project', () => {
  let project: FreshProject;
  let server: TestServer;
  let receiver: WebhookReceiver;
  let console: ConsoleClient;
  let projectId: string;
  let apiKey: string;

  beforeAll(async () => {
    [project, server, receiver] = await Promise.all([
      freshProject('sdk-node-app', inject('sdkTarball')),
      startTestServer(),
      startReceiver(),
    ]);
    ({ console, projectId, apiKey } = await serverClient(server.url));
    project.write({
      'backend.ts': BACKEND,
      'requiring.cts': REQUIRING_MODULE,
      'tsconfig.json': JSON.stringify(TSCONFIG, null, 2),
    });
  }, 60_000);
  afterAll(async () => {
    project?.remove();
    await receiver?.close();
    await server?.dispose();
  });

  it('resolves both entry points inside the project, for import and require', async () => {
    for (const specifier of ['@switchboard/sdk', '@switchboard/sdk/node']) {
      const { import: imported, require: required } = await project.resolved(specifier);
      expect(imported).toMatch(/node_modules\/@switchboard\/sdk\/dist\/esm\/(index|node)\.js$/);
      expect(required).toMatch(/node_modules\/@switchboard\/sdk\/dist\/cjs\/(index|node)\.js$/);
      for (const file of [imported, required]) expect(isInside(project.folder, file), file).toBe(true);
    }
  });

  it('type-checks the backend and a CommonJS module with strict, reading only the project and the package', async () => {
    const read = await project.compile();
    expect(read).toContain(`${project.folder}/backend.ts`);
    for (const format of ['esm', 'cjs']) {
      expect(read).toContain(`${project.folder}/node_modules/@switchboard/sdk/dist/${format}/contract.d.ts`);
    }
    expect(read.filter((file) => !isInside(project.folder, file))).toEqual([]);
    expect(read.filter((file) => isInside(REPOSITORY, file))).toEqual([]);
  }, 60_000);

  it('runs it: a room, a chat message each way on the realtime socket, a typed error, a verified webhook', async () => {
    const webhook = await console.webhooks.register(projectId, {
      url: receiver.url,
      environment: 'development',
      events: ['room.created'],
    });
    const printed = await project.run(process.execPath, [...NODE_FLAGS, 'out/backend.js', 'api', server.url, apiKey]);
    expect(JSON.parse(printed)).toEqual({
      room: 'standup',
      fromAlice: 'hello bob',
      sent: 'bob',
      missingRoom: '404 SERVICE_ROOM_NOT_FOUND',
    });

    const [delivery] = await receiver.waitForRequests(1);
    const header = String(delivery.headers['service-signature']);
    const verified = await project.run(process.execPath, [
      'out/backend.js',
      'verify',
      webhook.secret,
      header,
      delivery.rawBody.toString('utf8'),
    ]);
    expect(JSON.parse(verified)).toEqual({ genuine: true, altered: false });
  }, 60_000);

  it('loads with require too, from a CommonJS module, the Node entry sharing the browser entry’s classes', async () => {
    const required = `require('./out/requiring.cjs').createRoom(${JSON.stringify(server.url)}, ${JSON.stringify(apiKey)})
      .then((room) => console.log(room.name))`;
    expect((await project.run(process.execPath, ['-e', required])).trim()).toBe('from CommonJS');
    const script = `const sdk = require('@switchboard/sdk'); const node = require('@switchboard/sdk/node');
      console.log(JSON.stringify({ shared: node.SwitchboardError === sdk.SwitchboardError && node.ChatClient === sdk.ChatClient,
        verifyWebhook: typeof node.verifyWebhook, inBrowserEntry: 'verifyWebhook' in sdk }));`;
    expect(JSON.parse(await project.run(process.execPath, ['-e', script]))).toEqual({
      shared: true,
      verifyWebhook: 'function',
      inBrowserEntry: false,
    });
  });
});
