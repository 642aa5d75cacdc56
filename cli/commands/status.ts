import type { Command } from 'commander';
import { AdminClient, ServerClient, type ServerNodeList, type User } from '../../sdk/index.js';
import { findAdminToken } from '../admin-token.js';
import { projectOption } from '../arguments.js';
import type { StoredKey } from '../config-folder.js';
import { action, type CliContext, isRefusedCredential } from '../context.js';
import type { CliIo } from '../io.js';
import { resolveDataDir } from '../user-folders.js';

/** The name of the development key that `status --env-file` creates when it has none to show. */
export const STATUS_KEY_NAME = 'cli status';

/**
 * A development key of the project whose full text can be printed. Secrets are never readable
 * again after creation, so the CLI keeps the one it made (in the credentials file) and prints it
 * again while the server still accepts it; otherwise it creates a new one.
 */
async function developmentKey(ctx: CliContext, projectId: string): Promise<StoredKey> {
  const stored = ctx.folder.statusKey(ctx.url, projectId);
  if (stored) {
    try {
      const whoami = await new ServerClient({ baseUrl: ctx.url, apiKey: stored.key }).whoami();
      if (whoami.projectId === projectId && whoami.environment === 'development') return stored;
    } catch (err) {
      // Revoked (or the server's data was reset): make a new one.
      if (!isRefusedCredential(err)) throw err;
    }
  }
  const created = await ctx.client().keys.create(projectId, { name: STATUS_KEY_NAME, environment: 'development' });
  const key = { id: created.id, key: created.key };
  ctx.folder.saveStatusKey(ctx.url, projectId, key);
  ctx.out.note(
    `Created development API key "${STATUS_KEY_NAME}" (${created.id}) for this project; ` +
      'later runs print the same key until it is revoked.',
  );
  return key;
}

/** The user of the stored session, or null when there is none or the server no longer accepts it. */
async function signedInUser(ctx: CliContext): Promise<User | null> {
  if (!ctx.folder.session(ctx.url)) return null;
  try {
    return (await ctx.client().auth.whoami()).user;
  } catch (err) {
    if (isRefusedCredential(err)) return null;
    throw err;
  }
}

/**
 * The live nodes: as the signed-in user when they own a project, else with the admin token when it is at hand (the
 * data folder of a server on this machine, or the variable); null when neither may see them.
 */
async function liveNodes(
  ctx: CliContext,
  io: CliIo,
  dataDir: string | undefined,
  user: User | null,
): Promise<ServerNodeList | null> {
  if (user) {
    try {
      return await ctx.client().serverNodes();
    } catch (err) {
      // Not an owner (403), or a server from before the node list (404): the admin token may still do.
      const status = (err as { status?: number }).status;
      if (status !== 403 && status !== 404 && !isRefusedCredential(err)) throw err;
    }
  }
  const adminToken = findAdminToken(io, resolveDataDir(dataDir, io.env, io.platform));
  if (!adminToken) return null;
  try {
    return await new AdminClient({ baseUrl: ctx.url, adminToken }).nodes();
  } catch (err) {
    // Another server's token, or a server from before the node list: say nothing of nodes.
    if (isRefusedCredential(err) || (err as { status?: number }).status === 404) return null;
    throw err;
  }
}

/** How old a heartbeat is, as the counts it carries are: `now` for the answering node's own. */
function freshness(node: ServerNodeList['data'][number], now: number): string {
  if (node.self) return 'now';
  const seconds = Math.max(0, Math.round((now - Date.parse(node.heartbeatAt)) / 1000));
  return `${seconds} s ago`;
}

/** Where a secret key rotation stands (docs/deployment.md, "Rotating the secret key"). */
function describeSecretKey({ secretKey }: ServerNodeList): string {
  const { inUse, replaced, pending, rotation } = secretKey;
  const what = {
    none: '',
    waiting: ': rotation waiting for every node to hold the new key',
    rotating: `: rotation under way${replaced ? ` from ${replaced}` : ''}, ${pending} webhook secrets left to seal again`,
    done: ': rotation done, nothing needs the previous key (restart without it)',
  };
  return `Secret key:     ${inUse}${what[rotation]}`;
}

function describeNodes(list: ServerNodeList, now: number): string[] {
  const bus = { none: 'one server, no Redis', up: 'connected through Redis', down: 'Redis lost: only this node seen' };
  return [
    describeSecretKey(list),
    `Nodes:          ${list.data.length} live (${bus[list.bus]})`,
    ...list.data.map(
      (node) =>
        `  ${node.host}:${node.port}  ${node.id}  ${node.version}  started ${node.startedAt}  ` +
        `${node.connections.realtime} realtime, ${node.connections.signaling} signaling as of ${freshness(node, now)}` +
        `${node.self ? '  (answered)' : ''}`,
    ),
  ];
}

export function registerStatusCommand(program: Command, io: CliIo): void {
  program
    .command('status')
    .description('Show the server, who is signed in and the project in use; or, with --env-file, .env lines')
    .option(
      '--env-file',
      'print SWITCHBOARD_URL=… and SWITCHBOARD_API_KEY=… (a development key of the project) as lines for a .env file',
    )
    .addOption(projectOption())
    .option(
      '--data-dir <dir>',
      "the server's data folder, whose admin token lists the live nodes when the signed-in user owns no project " +
        '(env SWITCHBOARD_DATA_DIR; or give the token in SWITCHBOARD_ADMIN_TOKEN)',
    )
    .action(
      action(io, async (ctx, flags: { envFile?: boolean; project?: string; dataDir?: string }) => {
        if (flags.envFile) {
          const { key } = await developmentKey(ctx, await ctx.projectId(flags.project));
          const lines = { SWITCHBOARD_URL: ctx.url, SWITCHBOARD_API_KEY: key };
          ctx.out.result(lines, () =>
            Object.entries(lines)
              .map(([name, value]) => `${name}=${value}`)
              .join('\n'),
          );
          return;
        }
        const user = await signedInUser(ctx);
        const projectId = flags.project ?? ctx.folder.project(ctx.url);
        const project = user && projectId ? await ctx.client().projects.get(projectId) : null;
        const nodes = await liveNodes(ctx, io, flags.dataDir, user);
        ctx.out.result({ url: ctx.url, user, project, ...(nodes && { nodes }) }, () =>
          [
            `Server:         ${ctx.url}`,
            `Signed in as:   ${user ? `${user.email} (${user.id})` : 'nobody (run `switchboard login`)'}`,
            `Project in use: ${
              project ? `${project.name} (${project.id}), role ${project.role}` : (projectId ?? 'none')
            }`,
            ...(nodes ? describeNodes(nodes, Date.now()) : []),
          ].join('\n'),
        );
      }),
    );
}
