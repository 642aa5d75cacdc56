import type { Command } from 'commander';
import { action, type CliContext, isRefusedCredential } from '../context.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { canPrompt, prompt } from '../prompt.js';

/** A value from its flag, else asked for on the terminal, else a usage error (no one to ask). */
async function flagOrPrompt(
  ctx: CliContext,
  value: string | undefined,
  flag: string,
  question: string,
  hidden = false,
): Promise<string> {
  if (value !== undefined) return value;
  if (!canPrompt(ctx.io)) throw new UsageError(`${flag} is required when no terminal is attached to ask for it`);
  return prompt(ctx.io, question, { hidden });
}

export function registerAuthCommands(program: Command, io: CliIo): void {
  program
    .command('login')
    .description('Sign in to the server and keep the session in your config folder (asks for what is missing)')
    .option('--email <email>', 'your account’s address')
    .option('--password <password>', 'your password (prefer the prompt: flags can show up in process lists)')
    .option('--sso', 'sign in with the server’s single sign-on provider, in your browser')
    .option('--no-browser', 'with --sso: only print the address to open, do not open a browser')
    .action(
      action(io, async (ctx, flags: { email?: string; password?: string; sso?: boolean; browser: boolean }) => {
        if (flags.sso && (flags.email !== undefined || flags.password !== undefined))
          throw new UsageError('--sso signs in through the browser: leave out --email and --password');
        const session = flags.sso
          ? // Loaded when asked for: its loopback HTTP server and crypto are no other command's start-up cost.
            await (await import('../sso-login.js')).signInWithBrowser(ctx, {
              openBrowser: flags.browser && canPrompt(ctx.io),
            })
          : await ctx.anonymousClient().auth.login({
              email: await flagOrPrompt(ctx, flags.email, '--email', 'Email: '),
              password: await flagOrPrompt(ctx, flags.password, '--password', 'Password: ', true),
            });
        ctx.folder.saveSession(ctx.url, { token: session.token, email: session.user.email });
        // The token stays in the credentials file: scripts get who signed in, not the secret.
        ctx.out.result(
          { url: ctx.url, user: session.user, expiresAt: session.expiresAt },
          () => `Signed in to ${ctx.url} as ${session.user.email}.`,
        );
      }),
    );

  program
    .command('register')
    .description('Create an account (with an invitation where the server asks for one) and sign in with it')
    .option('--email <email>', 'your address')
    .option('--password <password>', 'at least 8 characters (prefer the prompt: flags can show up in process lists)')
    .option('--name <name>', 'your name, as the dashboard shows it')
    .option('--invitation <token>', 'the invitation a project owner gave you (`switchboard members invite`)')
    .action(
      action(io, async (ctx, flags: { email?: string; password?: string; name?: string; invitation?: string }) => {
        const email = await flagOrPrompt(ctx, flags.email, '--email', 'Email: ');
        const password = await flagOrPrompt(
          ctx,
          flags.password,
          '--password',
          'Password (8 or more characters): ',
          true,
        );
        const session = await ctx
          .anonymousClient()
          .auth.register({ email, password, name: flags.name, invitation: flags.invitation });
        ctx.folder.saveSession(ctx.url, { token: session.token, email: session.user.email });
        ctx.out.result(
          { url: ctx.url, user: session.user, expiresAt: session.expiresAt },
          () => `Registered and signed in to ${ctx.url} as ${session.user.email}.`,
        );
      }),
    );

  program
    .command('logout')
    .description('Sign out: revoke the session on the server and forget it')
    .action(
      action(io, async (ctx) => {
        const session = ctx.folder.session(ctx.url);
        if (session) {
          try {
            await ctx.client().auth.logout();
          } catch (err) {
            // A session the server no longer accepts is as good as signed out; anything else (the
            // server unreachable) keeps it, so that logging out again can still revoke it.
            if (!isRefusedCredential(err)) throw err;
          }
          ctx.folder.forgetSession(ctx.url);
        }
        ctx.out.line(session ? `Signed out of ${ctx.url}.` : `Not signed in to ${ctx.url}.`);
      }),
    );

  program
    .command('whoami')
    .description('Show who you are signed in as, on which server, and the project in use')
    .action(
      action(io, async (ctx) => {
        const whoami = await ctx.client().auth.whoami();
        const project = ctx.folder.project(ctx.url);
        ctx.out.result(whoami, () =>
          [
            `${whoami.user.email}${whoami.user.name ? ` (${whoami.user.name})` : ''}, user ${whoami.user.id}`,
            `Server: ${ctx.url}`,
            `Project in use: ${project ?? 'none (choose one with `switchboard projects use <id>`)'}`,
          ].join('\n'),
        );
      }),
    );
}
