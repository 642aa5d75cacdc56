import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeSsoRefusal, type SsoRefusalText } from '../sdk/index.js';
import type { Session } from '../sdk/types.js';
import type { CliContext } from './context.js';
import { CommandError } from './errors.js';
import { untilInterrupted } from './interrupt.js';

/** As long as the server keeps a sign-in's flow: past it, the browser's answer could only be refused. */
const WAIT_MS = 10 * 60 * 1000;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The page the browser shows at the end: the sign-in's outcome, and that the terminal takes it from here. */
function page(title: string, text: string): string {
  return (
    `<!doctype html><html lang="en"><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    '<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5">' +
    `<p style="color:#1c7ed6;font-weight:700">Switchboard CLI</p><h1>${escapeHtml(title)}</h1>` +
    `<p>${escapeHtml(text)}</p></body></html>`
  );
}

/** Opens `url` in the desktop's browser, if there is one to open; the address is printed anyway. */
function openBrowser(url: string, platform: NodeJS.Platform): void {
  const [command, args] =
    platform === 'darwin'
      ? ['open', [url]]
      : platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replaceAll('&', '^&')]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No browser to open: the printed address does.
  }
}

interface Answer {
  grant?: string;
  error?: string;
  detail?: string;
}

/** Waits for the browser's one visit to the loopback listener's `/callback`, and answers it with `reply`. */
function waitForAnswer(server: Server, reply: (answer: Answer) => SsoRefusalText): Promise<Answer> {
  return new Promise((resolve) => {
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method !== 'GET' || url.pathname !== '/callback') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      const answer: Answer = {
        grant: url.searchParams.get('grant') ?? undefined,
        error: url.searchParams.get('error') ?? undefined,
        detail: url.searchParams.get('detail') ?? undefined,
      };
      const { title, explanation } = reply(answer);
      res
        .writeHead(answer.grant ? 200 : 400, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
          'cache-control': 'no-store',
        })
        .end(page(title, explanation));
      resolve(answer);
    });
  });
}

/**
 * `switchboard login --sso`, as `gh auth login --web` does it: the CLI listens on 127.0.0.1 (a port the system
 * picks), sends the browser to the server's single sign-on with that loopback address and the S256 challenge of a
 * verifier only it holds, and receives the browser at the end with a one-time grant, which it redeems with the
 * verifier for a session (RFC 8252, with PKCE protecting the grant as it protects a code).
 */
export async function signInWithBrowser(ctx: CliContext, options: { openBrowser: boolean }): Promise<Session> {
  const client = ctx.anonymousClient();
  const { singleSignOn } = await client.auth.methods();
  if (!singleSignOn)
    throw new CommandError(`${ctx.url} has no single sign-on; sign in with your email and password instead`);
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const callback = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
    const start = `${ctx.url}${singleSignOn.startPath}?${new URLSearchParams({ cli: callback, challenge })}`;
    const answered = waitForAnswer(server, (answer) => {
      if (!answer.grant) return describeSsoRefusal(answer.error ?? 'unknown', answer.detail, singleSignOn.name);
      return { title: 'Signed in', explanation: 'You can close this tab and return to the terminal.' };
    });
    ctx.out.note(
      `Open this address in your browser to sign in with ${singleSignOn.name}:\n\n  ${start}\n\n` +
        'Waiting for the browser to come back (Ctrl-C to stop)…',
    );
    if (options.openBrowser) openBrowser(start, ctx.io.platform);
    const answer = await untilInterrupted(
      (stopped) =>
        new Promise<Answer | 'stopped' | 'timeout'>((resolve) => {
          const timer = setTimeout(() => resolve('timeout'), WAIT_MS);
          stopped.addEventListener('abort', () => resolve('stopped'), { once: true });
          void answered.then((a) => {
            clearTimeout(timer);
            resolve(a);
          });
        }),
    );
    if (answer === 'stopped') throw new CommandError('sign-in stopped before the browser came back');
    if (answer === 'timeout')
      throw new CommandError('the browser did not come back within 10 minutes; run `switchboard login --sso` again');
    if (!answer.grant) {
      const refusal = describeSsoRefusal(answer.error ?? 'unknown', answer.detail, singleSignOn.name);
      throw new CommandError(`${refusal.title}: ${refusal.explanation}`);
    }
    return await client.auth.redeemGrant({ grant: answer.grant, verifier });
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
