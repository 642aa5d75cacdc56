import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader } from '../../server/webhooks/signature.js';
import { createKey, createProject, registerUser } from '../support/factories.js';
import { useTestServer } from '../support/use-test-server.js';
import { type CodeBlock, codeBlocks, documentFiles } from './code-blocks.js';

// Every fenced code block of README.md and docs/*.md is run here, checked, or named below with the reason it is
// not, so that none can rot unnoticed: a block that is none of these fails this file, and so does a rule that names
// no block. By language, unless a rule says otherwise: `json` must parse; `ts` and `js` must type-check, all in one
// program against the repository's own sdk/, testing/ and server/ (`@switchboard/sdk` and `switchboard/testing`
// resolve to their sources); anything else needs a rule, or `no-test: <why>` after the fence's language
// (```ini no-test: a systemd unit). Shell and program blocks run against this file's server, `http://127.0.0.1:4700`
// replaced by its address, in the order of the documents: README.md's session first.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCUMENTED_BASE = 'http://127.0.0.1:4700';
const run = promisify(execFile);
/** A block starts a process per step (README.md's session: 13 `node -pe`), slow on a machine whose cores are busy. */
const BLOCK_TIMEOUT = 60_000;
/** tsx's loader, by its path: the programs run in a folder of their own, outside the repository. */
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** What a shell block is given that an earlier step of the reader's session made: variables, and files in its cwd. */
type ShellSetup = (baseUrl: string) => Promise<{ env?: Record<string, string>; files?: Record<string, string> }>;

interface Rule {
  file: string;
  /** Text that only this block of the file contains. */
  contains: string;
  /** Not run, and why. */
  notRun?: string;
  /** Run with bash: `set -eo pipefail`, curl failing on an error answer. */
  shell?: { setup?: ShellSetup; prints?: RegExp };
  /** Run as a program (after type-checking), in an empty folder: a self-contained example. */
  program?: { prints?: RegExp };
  /** Declarations of what a fragment uses from the text around it, for type-checking. */
  preamble?: string;
  /** A quotation of the repository's source: it must still be in this file. */
  excerptOf?: string;
}

const testingTypes = `import type { TestServer } from 'switchboard/testing';\n`;

const RULES: Rule[] = [
  // README.md
  {
    file: 'README.md',
    contains: 'npm install && npm start',
    notRun: 'installs from the registry, then serves on port 4700 until stopped (test/cli/npm-start.test.ts)',
  },
  { file: 'README.md', contains: 'json() { node -pe', shell: { prints: /^Hello, bob$/m } },
  { file: 'README.md', contains: 'npm install && npm test', notRun: 'the whole suite: CI (.ci/run) runs exactly this' },
  {
    file: 'README.md',
    contains: 'npm run desktop:install',
    notRun: "downloads Electron's binary (not from the registry) and opens a window",
  },
  {
    file: 'README.md',
    contains: 'npm run dev:dashboard',
    notRun: 'a dev server until stopped, a build and a benchmark (test/browser/dashboard builds the dashboard)',
  },
  {
    file: 'README.md',
    contains: 'npm run build:binary',
    notRun: 'writes a 92 MB executable, then serves from /var/lib (test/binary)',
  },
  {
    file: 'README.md',
    contains: 'switchboard seed init',
    notRun: 'the CLI, serving on port 4700 until stopped (test/cli/data.test.ts runs both commands)',
  },
  { file: 'README.md', contains: 'RUNNER_TEMP', notRun: "GitHub Actions steps of a user's CI job, not a shell script" },
  { file: 'README.md', contains: 'chat.test.mjs', program: { prints: /^true$/m } },
  {
    file: 'README.md',
    contains: 'node dist/switchboard.mjs login',
    notRun: 'the CLI asks for a password at its prompt (test/cli/auth.test.ts signs in the same way)',
  },
  // docs/
  {
    file: 'docs/architecture.md',
    contains: 'npm run db:generate',
    notRun: "the project's npm scripts, each with a comment: CI runs them",
  },
  { file: 'docs/architecture.md', contains: 'startServer', program: { prints: /^http:\/\/127\.0\.0\.1:\d+$/m } },
  {
    file: 'docs/backups.md',
    contains: 'switchboard backup',
    notRun: 'a synopsis, with placeholders (FILE, DIR, [--replace]) (test/cli/data.test.ts)',
  },
  { file: 'docs/benchmarks.md', contains: 'npm run bench\n', notRun: 'the benchmarks: minutes of a busy machine' },
  { file: 'docs/benchmarks.md', contains: 'BENCH_ONLY=chat', notRun: 'the benchmarks: minutes of a busy machine' },
  {
    file: 'docs/chat.md',
    contains: '/v1/chat/tokens',
    shell: { setup: async (baseUrl) => ({ env: { KEY: await developmentKey(baseUrl) } }), prints: /"userId":"alice"/ },
  },
  {
    file: 'docs/chat.md',
    contains: '"createdBy":"alice","members":[{"userId":"bob"}',
    shell: {
      setup: async (baseUrl) => ({ env: { B: baseUrl, KEY: await developmentKey(baseUrl) } }),
      prints: /"name":"support-42"/,
    },
  },
  {
    file: 'docs/chat.md',
    contains: 'photo.jpg',
    shell: {
      setup: async (baseUrl) => ({
        env: await chatTokenAndConversation(baseUrl),
        files: { 'photo.jpg': 'not a JPEG' },
      }),
    },
  },
  {
    file: 'docs/cli.md',
    contains: 'switchboard serve [--port 4700]',
    notRun: 'a synopsis, with placeholders and [options] (test/cli runs each command)',
  },
  ...[
    'tail --environment prod',
    'env reset --environment stg',
    'clock advance 2h',
    'faults add',
    'record start',
    'replay session.har',
    'trigger message',
  ].map(
    (command): Rule => ({
      file: 'docs/cli.md',
      contains: `$ switchboard ${command}`,
      notRun: 'a transcript: a command and its output, with ids elided (…) (test/cli)',
    }),
  ),
  {
    file: 'docs/cli.md',
    contains: 'switchboard status --env-file >> .env',
    notRun: "appends to the reader's .env, signed in (test/cli/audit-and-status.test.ts)",
  },
  {
    file: 'docs/dashboard.md',
    contains: 'npm run dev:dashboard',
    notRun: 'servers until stopped, a build and a benchmark (test/browser/dashboard builds the dashboard)',
  },
  {
    file: 'docs/deployment.md',
    contains: 'npm run build:binary',
    notRun: 'writes a 92 MB executable, then serves on port 4700 until stopped (test/binary)',
  },
  // docs/deployment/: the files test/cluster/deployment.test.ts, test/support/haproxy.ts and test/support/prometheus.ts
  // run, shown whole.
  ...(
    [
      ['one server, SQLite in its data folder', 'switchboard.service'],
      ['the same on the three nodes', 'switchboard-node.service'],
      ['SWITCHBOARD_SECRET_KEY=SECRET_KEY', 'cluster.env'],
      ['haproxy.cfg on 10.0.0.10', 'haproxy.cfg'],
      ['CREATE ROLE switchboard', 'prepare-postgres.sql'],
      ['job_name: switchboard', 'prometheus.yml'],
      ['alert: SwitchboardBusLost', 'switchboard-alerts.yml'],
    ] as const
  ).map(([contains, file]): Rule => ({ file: 'docs/deployment.md', contains, excerptOf: `docs/deployment/${file}` })),
  {
    file: 'docs/deployment.md',
    contains: 'openssl rand -base64 48 > /etc/switchboard/secret-key',
    notRun: "a server's /etc and a production server until stopped (test/cluster/deployment.test.ts runs the units)",
  },
  {
    file: 'docs/deployment.md',
    contains: '--max-websockets 25000',
    notRun: 'a production server on port 4700 until stopped',
  },
  { file: 'docs/realtime.md', contains: '/v1/realtime', preamble: 'declare const chatToken: string;' },
  {
    file: 'docs/realtime.md',
    contains: 'socket.onmessage',
    preamble: 'declare const socket: WebSocket; declare function handle(frame: unknown): void;',
  },
  {
    file: 'docs/sdk.md',
    contains: 'npm pack ./sdk',
    notRun: 'clones and installs from outside; test/sdk-package packs ./sdk and installs the tarball the same way',
  },
  { file: 'docs/sdk.md', contains: 'new ConsoleClient', program: { prints: /type: 'api_key'/ } },
  {
    file: 'docs/sdk.md',
    contains: 'admin.observability.events',
    preamble: `import type { ConsoleClient } from '@switchboard/sdk';\ndeclare const admin: ConsoleClient; declare const project: { id: string };`,
  },
  {
    file: 'docs/sdk.md',
    contains: 'new ChatClient',
    preamble: `import { ChatClient } from '@switchboard/sdk';
declare const baseUrl: string, token: string, conversationId: string, messageId: string;
declare function render(conversationId: string, message: unknown, caughtUp?: boolean): void;
declare function showTyping(userId: string): void;`,
  },
  {
    file: 'docs/sdk.md',
    contains: 'RtcClient.join',
    preamble: `import { RtcClient } from '@switchboard/sdk';
declare const baseUrl: string, token: string;
declare function show(identity: string, stream: MediaStream): void;
declare function hide(identity: string): void;`,
  },
  { file: 'docs/sdk.md', contains: 'revoke(projectId: string, keyId: string', excerptOf: 'sdk/console/keys.ts' },
  { file: 'docs/signaling.md', contains: '/v1/rtc?access_token', preamble: 'declare const token: string;' },
  {
    file: 'docs/testing-your-app.md',
    contains: "import { createChatApp } from './chat-app';",
    preamble: `declare function beforeAll(hook: () => unknown): void; declare function afterAll(hook: () => unknown): void;
const seed = { user: { email: 'dev@example.com', password: 'development only' }, projects: [{ name: 'Chat app' }] } as const;`,
  },
  { file: 'docs/testing-your-app.md', contains: 'is not a valid seed', notRun: 'an error message, as printed' },
  {
    file: 'docs/testing-your-app.md',
    contains: 'advanceClock',
    preamble: `${testingTypes}declare const switchboard: TestServer<'Test'>;`,
  },
  {
    file: 'docs/testing-your-app.md',
    contains: 'snapshots.restore',
    preamble: `${testingTypes}declare const switchboard: TestServer<'Test'>;`,
  },
  {
    file: 'docs/testing-your-app.md',
    contains: 'faults.dropSockets',
    preamble: `${testingTypes}declare const switchboard: TestServer<'Test'>; declare const projectId: string;`,
  },
  {
    file: 'docs/testing-your-app.md',
    contains: 'console.recordings.download',
    preamble: `${testingTypes}declare const switchboard: TestServer<'Test'>; declare const projectId: string;`,
  },
  {
    file: 'docs/testing-your-app.md',
    contains: "await replay('session.har')",
    preamble: `${testingTypes}declare const switchboard: TestServer<'Test'>; declare const projectId: string; declare const har: object;`,
  },
  {
    file: 'docs/testing-your-app.md',
    contains: 'attempt missing: {"status":500',
    notRun: 'what `switchboard replay` prints, with ids elided (…) (test/cli/replay.test.ts)',
  },
  {
    file: 'docs/testing-your-app.md',
    contains: "clients.chat('trigger-bob')",
    preamble: `${testingTypes}declare const switchboard: TestServer<'Chat app'>;`,
  },
  {
    file: 'docs/webhooks.md',
    contains: 'openssl dgst',
    shell: { setup: async () => signedDelivery(), prints: /^valid$/m },
  },
];

const blocks = documentFiles(ROOT).flatMap((file) => codeBlocks(ROOT, file));
const where = (block: CodeBlock) => `${block.file}:${block.line}`;
const ruleOf = (block: CodeBlock) =>
  RULES.find((rule) => rule.file === block.file && block.code.includes(rule.contains));
const isTypeScript = (block: CodeBlock) =>
  ['ts', 'js'].includes(block.language) && !ruleOf(block)?.excerptOf && !block.info.startsWith('no-test:');

const running = useTestServer();

describe('the code blocks of README.md and docs/', () => {
  // tsc takes the longest (it checks the server's sources too): it runs while the blocks run.
  let typeErrors: Promise<string>;
  beforeAll(() => {
    typeErrors = typeCheck(blocks.filter(isTypeScript));
    typeErrors.catch(() => {}); // awaited by its test
  });

  it('are each run, checked, or named with the reason they are not', () => {
    const unclassified = blocks
      .filter((block) => !ruleOf(block) && !block.info.startsWith('no-test:'))
      .filter((block) => !['json', 'ts', 'js'].includes(block.language))
      .map((block) => `${where(block)} (\`\`\`${block.language}): add a rule to test/docs/code-blocks.test.ts`);
    expect(unclassified).toEqual([]);
    const ruleMatches = RULES.map((rule) => ({
      rule: `${rule.file}: ${rule.contains}`,
      blocks: blocks.filter((block) => block.file === rule.file && block.code.includes(rule.contains)).map(where),
    }));
    expect(ruleMatches.filter((match) => match.blocks.length !== 1)).toEqual([]);
    expect(blocks.length).toBeGreaterThan(40);
  });

  it('JSON examples parse', () => {
    for (const block of blocks.filter((b) => b.language === 'json' && !b.info.startsWith('no-test:'))) {
      expect(() => JSON.parse(block.code), where(block)).not.toThrow();
    }
  });

  it('quotations of the source are still in it', () => {
    for (const rule of RULES.filter((r) => r.excerptOf)) {
      const block = blocks.find((b) => ruleOf(b) === rule) as CodeBlock;
      // As formatted for the page: compared without whitespace and trailing commas.
      const tokens = (code: string) => code.replace(/\s+/g, '').replace(/,(?=[)\]}])/g, '');
      expect(tokens(readFileSync(join(ROOT, rule.excerptOf as string), 'utf8')), where(block)).toContain(
        tokens(block.code),
      );
    }
  });

  for (const block of blocks.filter((b) => ruleOf(b)?.shell)) {
    it(
      `${where(block)} runs in bash against a server`,
      async () => {
        const { setup, prints } = ruleOf(block)?.shell ?? {};
        const given = (await setup?.(running.server.url)) ?? {};
        const cwd = mkdtempSync(join(tmpdir(), 'docs-shell-'));
        try {
          for (const [name, text] of Object.entries(given.files ?? {})) writeFileSync(join(cwd, name), text);
          const script = [
            'set -eo pipefail',
            'curl() { command curl --fail-with-body "$@"; }', // an error answer fails the block, its body printed
            // `NAME=<a chat token>` in a block: a value the reader has from an earlier step, here in the environment.
            block.code.replaceAll(DOCUMENTED_BASE, running.server.url).replace(/\b([A-Z_]+)=<[^>\n]*>/g, '$1="$$$1"'),
          ].join('\n');
          const { stdout } = await run('bash', ['-c', script], {
            cwd,
            env: { ...process.env, B: running.server.url, ...given.env },
          }).catch((err: { stdout: string; stderr: string; code: number }) => {
            throw new Error(`${where(block)} exited with ${err.code}:\n${err.stdout}\n${err.stderr}`);
          });
          expect(stdout, 'a field the block prints is missing from its answer').not.toMatch(/^undefined$/m);
          if (prints) expect(stdout).toMatch(prints);
        } finally {
          rmSync(cwd, { recursive: true, force: true });
        }
      },
      BLOCK_TIMEOUT,
    );
  }

  for (const block of blocks.filter((b) => ruleOf(b)?.program)) {
    it(
      `${where(block)} runs as a program against a server`,
      async () => {
        const dir = join(ROOT, 'node_modules/.cache/docs-code-blocks/programs');
        mkdirSync(dir, { recursive: true });
        const file = join(
          dir,
          `${block.file.replace(/\W/g, '-')}-${block.line}.${block.language === 'js' ? 'mjs' : 'mts'}`,
        );
        writeFileSync(file, sourcePaths(block.code.replaceAll(DOCUMENTED_BASE, running.server.url), { run: true }));
        const cwd = mkdtempSync(join(tmpdir(), 'docs-program-'));
        try {
          // JavaScript is as Node.js itself parses it (no `await using` …); its imports of the package load from source.
          if (block.language === 'js') await run(process.execPath, ['--check', file]);
          const { stdout } = await run(process.execPath, ['--import', TSX, file], {
            cwd,
            env: { ...process.env },
          }).catch((err: { stdout: string; stderr: string; code: number }) => {
            throw new Error(`${where(block)} exited with ${err.code}:\n${err.stdout}\n${err.stderr}`);
          });
          const prints = ruleOf(block)?.program?.prints;
          if (prints) expect(stdout).toMatch(prints);
        } finally {
          rmSync(cwd, { recursive: true, force: true });
        }
      },
      BLOCK_TIMEOUT,
    );
  }

  // Last: the blocks above ran while tsc worked.
  it('TypeScript and JavaScript blocks type-check', async () => {
    expect(await typeErrors).toBe('');
  }, 90_000);
});

/** The documents import the package by name, or from a clone's root (`./sdk/index.js`): here, from the sources. */
function sourcePaths(code: string, options: { run?: boolean } = {}): string {
  const fromRoot = code.replace(/from '\.\/(sdk|server|testing)\//g, `from '${ROOT}$1/`);
  if (!options.run) return fromRoot;
  return fromRoot
    .replace(/from 'switchboard\/testing'/g, `from '${ROOT}testing/index.ts'`)
    .replace(/from '@switchboard\/sdk\/node'/g, `from '${ROOT}sdk/node.ts'`)
    .replace(/from '@switchboard\/sdk'/g, `from '${ROOT}sdk/index.ts'`);
}

/** tsc's errors for these blocks, each at its document's line ('' when none). */
async function typeCheck(typeScript: CodeBlock[]): Promise<string> {
  const dir = join(ROOT, 'node_modules/.cache/docs-code-blocks/types');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = new Map<string, CodeBlock>();
  for (const block of typeScript) {
    // A block that names its file (`// chat-app.ts`) is imported by that name by the next one.
    const named = /^\/\/ ([\w.-]+\.ts)\n/.exec(block.code)?.[1];
    const name = named ?? `${block.file.replace(/\W/g, '-')}-${block.line}.ts`;
    const preamble = ruleOf(block)?.preamble ?? '';
    writeFileSync(join(dir, name), `${preamble}\n${sourcePaths(block.code)}\nexport {};\n`);
    files.set(name, block);
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(typeCheckConfig([...files.keys()])));
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const errors = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir }).then(
    () => '',
    (err: { stdout: string }) => err.stdout,
  );
  return errors.replace(/^([\w.-]+\.ts)\((\d+),/gm, (all, name: string, line: string) => {
    const block = files.get(name);
    if (!block) return all;
    const offset = (ruleOf(block)?.preamble ?? '').split('\n').length;
    return `${block.file}:${block.line + Number(line) - offset}(`;
  });
}

function typeCheckConfig(files: string[]) {
  return {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ESNext', 'DOM', 'DOM.Iterable'],
      module: 'ESNext',
      moduleResolution: 'Bundler',
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      resolveJsonModule: true,
      noEmit: true,
      // The blocks change seldom and the sources they import check the longest: tsc keeps what it learnt.
      incremental: true,
      tsBuildInfoFile: join(ROOT, 'node_modules/.cache/docs-code-blocks/types.tsbuildinfo'),
      types: ['node'],
      paths: {
        'switchboard/testing': [`${ROOT}testing/index.ts`],
        '@switchboard/sdk': [`${ROOT}sdk/index.ts`],
        '@switchboard/sdk/node': [`${ROOT}sdk/node.ts`],
      },
    },
    files,
  };
}

async function ownerKeyOfNewProject(baseUrl: string) {
  const { client } = await import('../support/http.js');
  const api = client(baseUrl);
  const owner = await registerUser(api);
  const project = await createProject(api, owner);
  return { api, key: (await createKey(api, project.id, owner, 'development')).key };
}

async function developmentKey(baseUrl: string) {
  return (await ownerKeyOfNewProject(baseUrl)).key;
}

async function chatTokenAndConversation(baseUrl: string) {
  const { api, key } = await ownerKeyOfNewProject(baseUrl);
  const conversation = await api.post('/v1/chat/conversations', {
    token: key,
    body: { name: 'photos', members: [{ userId: 'alice' }] },
  });
  const chat = await api.post('/v1/chat/tokens', { token: key, body: { userId: 'alice' } });
  return { CHAT: chat.body.token as string, ROOM: conversation.body.id as string };
}

async function signedDelivery() {
  const SECRET = 'whsec_documentationExampleSecret00000000000';
  const body = '{"id":"evt_1","type":"message.created"}';
  return {
    env: { SECRET, SIG: signatureHeader(SECRET, Math.floor(Date.now() / 1000), body) },
    files: { 'body.json': body },
  };
}
