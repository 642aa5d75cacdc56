import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect } from 'vitest';
import { createProject, PASSWORD, registerUser, type TestUser } from './factories.js';
import { useTestServer } from './use-test-server.js';

/** The built binary (see test/cli/build.global-setup.ts). */
const BIN = resolve('dist/switchboard.mjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** This process's environment without its SWITCHBOARD_* and XDG_* settings, with `home` as HOME, plus `env`. */
function childEnv(options: { home: string; env?: Record<string, string> }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { HOME: options.home };
  for (const [name, value] of Object.entries(process.env))
    if (!/^(SWITCHBOARD_|XDG_|HOME$)/.test(name)) env[name] = value;
  return Object.assign(env, options.env);
}

/**
 * Runs `switchboard …args` as a subprocess with `home` as its HOME and no terminal attached, in an
 * environment cleared of the caller's SWITCHBOARD_* and XDG_* settings; `env` adds to it.
 */
export function runCli(args: string[], options: { home: string; env?: Record<string, string> }): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], { env: childEnv(options), stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface RunningCli {
  child: ChildProcess;
  output: { stdout: string; stderr: string };
  /** Resolves with stderr once it matches the `ready` pattern; rejects if the command exits first. */
  ready: Promise<string>;
  exited: Promise<number | null>;
  /** Waits until stdout matches (asserting it, after about 10 s). */
  waitForStdout(pattern: RegExp): Promise<void>;
  /** Waits until stderr matches (asserting it, after about 10 s). */
  waitForStderr(pattern: RegExp): Promise<void>;
}

/** Starts a long-running `switchboard …args` (listen, tail) as `runCli` runs a short one. */
export function startCli(
  args: string[],
  options: { home: string; env?: Record<string, string> },
  ready: RegExp,
): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], { env: childEnv(options), stdio: ['pipe', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => {
    output.stdout += chunk;
  });
  const readyPromise = new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      output.stderr += chunk;
      if (ready.test(output.stderr)) resolve(output.stderr);
    });
    child.once('close', (code) => reject(new Error(`exited ${code}: ${output.stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const waitFor = async (which: 'stdout' | 'stderr', pattern: RegExp) => {
    for (let i = 0; i < 500 && !pattern.test(output[which]); i++) await new Promise((r) => setTimeout(r, 20));
    expect(output[which]).toMatch(pattern);
  };
  return {
    child,
    output,
    ready: readyPromise,
    exited,
    waitForStdout: (pattern) => waitFor('stdout', pattern),
    waitForStderr: (pattern) => waitFor('stderr', pattern),
  };
}

/**
 * True when no terminal can be given to the CLI here, after printing why, for `it.skipIf(...)`.
 * The terminal is a pseudo-terminal from util-linux `script`.
 */
export function terminalUnavailable(what: string): boolean {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return false;
  } catch {
    console.warn(`Skipping ${what}: util-linux \`script\` is not installed to give the CLI a terminal`);
    return true;
  }
}

/**
 * Runs `switchboard …args` on a terminal and answers its questions: each answer is typed when its
 * question has appeared. Returns everything the terminal showed (stdout and stderr, with CRLF).
 */
export function runCliOnTerminal(
  args: string[],
  options: { home: string; env?: Record<string, string>; answers: [question: string, answer: string][] },
): Promise<CliResult> {
  const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
    env: childEnv(options),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const answers = [...options.answers];
  let shown = '';
  let from = 0;
  child.stdout.on('data', (chunk) => {
    shown += chunk;
    const next = answers[0];
    const at = next ? shown.indexOf(next[0], from) : -1;
    if (next && at >= 0) {
      answers.shift();
      from = at + next[0].length;
      child.stdin.write(`${next[1]}\r`);
    }
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout: shown, stderr: '' }));
  });
}

/** Asserts a successful run and returns its stdout. */
export function ok(result: CliResult): string {
  expect(result.code, `stderr: ${result.stderr}\nstdout: ${result.stdout}`).toBe(0);
  return result.stdout;
}

/** Asserts an API error: exit code 1 and `error: CODE: message (request req_…)` on stderr. */
export function expectApiError(result: CliResult, code: string): void {
  expect(result.code, `stdout: ${result.stdout}`).toBe(1);
  expect(result.stderr).toMatch(new RegExp(`^error: ${code}: .+ \\(request req_[0-9A-Z]{26}\\)\\n$`));
}

/** Asserts a usage error: exit code 2, a message on stderr, nothing on stdout. */
export function expectUsageError(result: CliResult, message: string | RegExp): void {
  expect(result.code, `stderr: ${result.stderr}`).toBe(2);
  expect(result.stderr).toMatch(message);
  expect(result.stdout).toBe('');
}

export interface CliUser {
  /** The account, registered through the API. */
  account: TestUser;
  /** Its HOME folder, of which the CLI's config folder is `.config/switchboard`. */
  home: string;
  configDir: string;
  run(...args: string[]): Promise<CliResult>;
  /** Starts a long-running command; `ready` is what its stderr says once it is ready. */
  start(args: string[], ready: RegExp): RunningCli;
  /** Runs with `--json` and parses stdout, asserting success. */
  json<T = any>(...args: string[]): Promise<T>;
}

/**
 * A test server for the file, and people who use the CLI against it, each with their own HOME
 * (removed after the file's tests).
 */
export function useCli() {
  const t = useTestServer();
  const homes: string[] = [];
  afterAll(() => {
    for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  });

  function newHome(): string {
    const home = mkdtempSync(join(tmpdir(), 'switchboard-cli-'));
    homes.push(home);
    return home;
  }

  /** Someone with an account who has not signed in with the CLI yet. */
  async function user(): Promise<CliUser> {
    const account = await registerUser(t.api);
    const home = newHome();
    const env = { SWITCHBOARD_URL: t.server.url };
    const run = (...args: string[]) => runCli(args, { home, env });
    return {
      account,
      home,
      configDir: join(home, '.config', 'switchboard'),
      run,
      start: (args, ready) => startCli(args, { home, env }, ready),
      json: async (...args) => JSON.parse(ok(await run('--json', ...args))),
    };
  }

  /** Someone signed in with `switchboard login`. */
  async function signedIn(): Promise<CliUser> {
    const u = await user();
    ok(await u.run('login', '--email', u.account.email, '--password', PASSWORD));
    return u;
  }

  /** Someone signed in, with a project of theirs chosen with `projects use`. */
  async function withProject(name = 'CLI project'): Promise<CliUser & { projectId: string }> {
    const u = await signedIn();
    const project = await createProject(t.api, u.account, name);
    ok(await u.run('projects', 'use', project.id));
    return { ...u, projectId: project.id };
  }

  return {
    get server() {
      return t.server;
    },
    get api() {
      return t.api;
    },
    newHome,
    user,
    signedIn,
    withProject,
  };
}
