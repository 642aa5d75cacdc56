// `@switchboard/sdk` in a user's browser app: installed from its tarball into a fresh Vite project outside the
// repository, built by Vite, served from its own origin and driven in Chromium, where a ChatClient sends and receives.
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ServerClient } from '../../sdk/index.js';
import { type AppFile, type AppOrigin, startAppOrigin } from '../support/app-origin.js';
import { chromiumUnavailable, launchChromium, type OfflineContext, type TestBrowser } from '../support/chromium.js';
import { serverClient } from '../support/sdk-keys.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { type FreshProject, freshProject, isInside, REPOSITORY } from './fresh-project.js';

/** The repository's Vite, by path: the fresh project installs nothing but the SDK. */
const VITE = join(REPOSITORY, 'node_modules', 'vite', 'bin', 'vite.js');

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Chat</title></head>
  <body>
    <p id="status">connecting</p>
    <ul id="messages"></ul>
    <form id="send"><input id="text" aria-label="Message"><button>Send</button></form>
    <script type="module" src="/src/main.ts"></script>
  </body>
</html>
`;

/** The app: the server, the user's chat token and the conversation come in the page's query. */
const MAIN_TS = `import { ChatClient } from '@switchboard/sdk';

const query = new URLSearchParams(location.search);
const conversationId = query.get('conversation') ?? '';
const chat = new ChatClient({ baseUrl: query.get('server') ?? '', token: query.get('token') ?? '' });
const messages = document.querySelector('#messages') as HTMLUListElement;
const input = document.querySelector('#text') as HTMLInputElement;

chat.on('message.created', ({ data: { message } }) => {
  const item = document.createElement('li');
  item.textContent = \`\${message.senderId}: \${message.text}\`;
  messages.append(item);
});
document.querySelector('#send')?.addEventListener('submit', (event) => {
  event.preventDefault();
  void chat.messages.send(conversationId, { text: input.value }).then(() => {
    input.value = '';
  });
});
void chat.connect().then(() => {
  (document.querySelector('#status') as HTMLElement).textContent = 'connected';
});
`;

const MEDIA_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
};

/** Every file of a built folder, by URL path, for the app's own static server. */
function builtFiles(folder: string, under = ''): Record<string, AppFile> {
  return Object.fromEntries(
    readdirSync(join(folder, under), { withFileTypes: true }).flatMap((entry) => {
      const path = join(under, entry.name);
      if (entry.isDirectory()) return Object.entries(builtFiles(folder, path));
      const file = { type: MEDIA_TYPES[extname(entry.name)] ?? 'application/octet-stream', body: '' };
      file.body = readFileSync(join(folder, path), 'utf8');
      return [[`/${path}`, file], ...(path === 'index.html' ? [['/', file]] : [])];
    }),
  );
}

describe.skipIf(chromiumUnavailable('the Vite app of the SDK package'))('@switchboard/sdk in a fresh Vite app', () => {
  let project: FreshProject;
  let server: TestServer;
  let backend: ServerClient;
  let app: AppOrigin;
  let chromium: TestBrowser;
  let context: OfflineContext | undefined;
  let conversationId: string;

  beforeAll(async () => {
    [project, server, chromium] = await Promise.all([
      freshProject('sdk-vite-app', inject('sdkTarball')),
      startTestServer(),
      launchChromium(),
    ]);
    project.write({ 'index.html': INDEX_HTML, 'src/main.ts': MAIN_TS });
    await project.run(process.execPath, [VITE, 'build', '--sourcemap', '--logLevel', 'warn'], {
      timeout: 60_000,
      env: { NODE_ENV: 'production' },
    });
    app = await startAppOrigin(builtFiles(join(project.folder, 'dist')));
    ({ server: backend } = await serverClient(server.url));
    conversationId = (
      await backend.conversations.create({
        name: 'general',
        members: [{ userId: 'alice' }, { userId: 'bob' }],
        createdBy: 'alice',
      })
    ).id;
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await chromium?.close();
    await app?.close();
    await server?.dispose();
    project?.remove();
  });

  it("bundles the SDK from the project's node_modules, nothing from the repository", () => {
    const assets = join(project.folder, 'dist', 'assets');
    const maps = readdirSync(assets).filter((file) => file.endsWith('.js.map'));
    const sources = maps.flatMap((map) =>
      (JSON.parse(readFileSync(join(assets, map), 'utf8')).sources as string[]).map((source) =>
        resolve(assets, source),
      ),
    );
    expect(sources).toContain(join(project.folder, 'src', 'main.ts'));
    expect(sources.some((file) => file.startsWith(join(project.folder, 'node_modules', '@switchboard', 'sdk')))).toBe(
      true,
    );
    expect(sources.filter((file) => !isInside(project.folder, file))).toEqual([]);
  });

  it('receives a message in Chromium on the realtime socket, and sends one', async () => {
    const { token } = await backend.chatTokens.create({ userId: 'bob' });
    context = await chromium.newOfflineContext();
    const page: Page = await context.newPage();
    const query = new URLSearchParams({ server: server.url, token, conversation: conversationId });
    await page.goto(`${app.url}/?${query}`);
    await page.locator('#status', { hasText: 'connected' }).waitFor();

    await backend.messages.send(conversationId, { senderId: 'alice', text: 'hello bob' });
    await page.locator('#messages li', { hasText: 'alice: hello bob' }).waitFor();

    await page.fill('#text', 'hi alice');
    await page.click('#send button');
    await page.locator('#messages li', { hasText: 'bob: hi alice' }).waitFor();
    const listed = await backend.messages.list(conversationId);
    expect(listed.data.map((message) => [message.senderId, message.text])).toEqual(
      expect.arrayContaining([
        ['alice', 'hello bob'],
        ['bob', 'hi alice'],
      ]),
    );
    expect(context.blocked).toEqual([]);
  });

  it('keeps the chat client small in a browser bundle (figure in docs/benchmarks.md)', async () => {
    const bundled = await build({
      stdin: { contents: "export { ChatClient } from '@switchboard/sdk';", resolveDir: project.folder },
      // The metafile names its inputs relative to this folder (by default the test's working directory).
      absWorkingDir: project.folder,
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(bundled.metafile.inputs).map((input) => resolve(project.folder, input));
    expect(
      inputs.filter((input) => input !== resolve(project.folder, '<stdin>') && !isInside(project.folder, input)),
    ).toEqual([]);
    const bytes = bundled.outputFiles[0].contents;
    const gzipped = gzipSync(bytes).length;
    console.log(`ChatClient from @switchboard/sdk, minified: ${bytes.length} bytes, gzipped: ${gzipped} bytes`);
    // A budget, not a measurement of speed: the chat client of a browser app stays well under this.
    expect(gzipped).toBeLessThan(20_000);
  });
});
