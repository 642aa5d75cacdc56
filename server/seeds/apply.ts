import type { Environment } from '../../db/schema/environment.js';
import { users } from '../../db/schema/users.js';
import type { UserActor } from '../audit/actor.js';
import { hashPassword } from '../auth/passwords.js';
import { normalizeEmail, type UserRow } from '../auth/service.js';
import type { AppContext } from '../context.js';
import { describeContents } from '../data-archive/data-dir.js';
import { givenKeyText } from '../keys/key-text.js';
import { SeedError } from './errors.js';
import type { Seed } from './schema.js';

/** One object a seed created, by its id. */
export interface Seeded {
  id: string;
  name: string;
  environment: Environment;
}

/** A project the seed created and what it holds, each list in the seed's order (`projects[0].rooms[1]`…). */
export interface SeededProject {
  id: string;
  name: string;
  apiKeys: Seeded[];
  rooms: Seeded[];
  conversations: Seeded[];
  webhooks: (Omit<Seeded, 'name'> & { url: string })[];
}

/** What starting with a seed did. */
export type SeedOutcome =
  | {
      applied: true;
      created: Record<'accounts' | 'projects' | 'apiKeys' | 'rooms' | 'conversations' | 'webhooks', number>;
      /** The seed's user, who owns every project. */
      user: { id: string; email: string };
      /** Each of the seed's projects, in its order. */
      projects: SeededProject[];
    }
  | { applied: false; reason: string };

/** Where the seed carries secrets (key text, webhook secrets): what a production-mode server refuses. */
export function secretPaths(seed: Seed): string[] {
  return seed.projects.flatMap((p, i) => [
    ...p.apiKeys.map((_, j) => `projects[${i}].apiKeys[${j}].key`),
    ...p.webhooks.flatMap((w, j) => (w.secret === undefined ? [] : [`projects[${i}].webhooks[${j}].secret`])),
  ]);
}

/**
 * Creates what the seed declares, if the data folder is empty (no account, no project): so a restart
 * with the same seed creates nothing twice, and a seed never merges into someone's data. All of it
 * is one transaction: a failure (a webhook URL the mode refuses, say) leaves nothing behind. Webhook
 * endpoints come last, so the seed's own rooms and conversations queue no deliveries.
 */
export async function applySeed(ctx: AppContext, seed: Seed): Promise<SeedOutcome> {
  const { db, store, clock, ids, services } = ctx;
  if (ctx.mode === 'production') {
    const secrets = secretPaths(seed);
    if (secrets.length)
      throw new SeedError(
        'A production-mode server refuses seeds that carry secrets, which belong in a secret manager, not a file: ' +
          `${secrets.join(', ')}. Remove them, or run the seed on a local-mode server.`,
      );
  }
  const existing = describeContents(db.$client);
  if (existing) return { applied: false, reason: `the data folder already holds ${existing}` };

  // Hashing is slow and asynchronous: done before the transaction, which must stay synchronous.
  const accounts = new Map<string, { name?: string; passwordHash: string }>();
  for (const person of [seed.user, ...seed.projects.flatMap((p) => p.members)]) {
    const email = normalizeEmail(person.email);
    if (!accounts.has(email))
      accounts.set(email, {
        name: person.name,
        passwordHash: await hashPassword(person.password, ctx.passwordHashing),
      });
  }

  const created = { accounts: 0, projects: 0, apiKeys: 0, rooms: 0, conversations: 0, webhooks: 0 };
  /** Runs one step, naming the seed's path in what it throws. */
  const step = <T>(path: string, run: () => T): T => {
    try {
      return run();
    } catch (err) {
      throw new SeedError(`${path}: ${(err as Error).message}`);
    }
  };

  // The store's transaction, as webhook endpoints are registered in it; the services still on the synchronous handle
  // join it on SQLite (the same connection, a savepoint each).
  const records = await store.transaction(async (tx) => {
    // Checked again inside the transaction: nothing can have landed since, but the rule is the transaction's.
    if (describeContents(db.$client)) throw new SeedError('The data folder stopped being empty while seeding.');
    const userIds = new Map<string, string>();
    for (const [email, account] of accounts) {
      const row: UserRow = {
        id: ids.next('usr'),
        email,
        name: account.name ?? null,
        passwordHash: account.passwordHash,
        createdAt: clock.now(),
      };
      await tx.insert(users).values(row);
      userIds.set(email, row.id);
      created.accounts++;
    }
    const owner: UserActor = {
      type: 'user',
      id: userIds.get(normalizeEmail(seed.user.email)) as string,
      email: normalizeEmail(seed.user.email),
    };

    const projects = seed.projects.map((p, i): SeededProject => {
      const at = `projects[${i}]`;
      const { id: projectId } = step(at, () => services.projects.create(owner, { name: p.name }));
      created.projects++;
      const acting = { actor: owner, projectId, role: 'OWNER' as const };
      p.members.forEach((m, j) => {
        step(`${at}.members[${j}]`, () => services.members.add(acting, m));
      });
      const apiKeys = p.apiKeys.map((k, j) => {
        const key = givenKeyText(k.key);
        if (!key) throw new SeedError(`${at}.apiKeys[${j}].key: not an API key`);
        const { row } = step(`${at}.apiKeys[${j}]`, () => services.keys.create(owner, projectId, k, key));
        created.apiKeys++;
        return { id: row.id, name: k.name, environment: k.environment };
      });
      const rooms = p.rooms.map(({ environment, ...room }, j) => {
        const { id } = step(`${at}.rooms[${j}]`, () => services.rooms.create({ projectId, environment }, room, owner));
        created.rooms++;
        return { id, name: room.name, environment };
      });
      const conversations = p.conversations.map(({ environment, ...conversation }, j) => {
        const caller = { kind: 'server' as const, scope: { projectId, environment }, userId: undefined };
        const { id } = step(`${at}.conversations[${j}]`, () => services.conversations.create(caller, conversation));
        created.conversations++;
        return { id, name: conversation.name, environment };
      });
      return { id: projectId, name: p.name, apiKeys, rooms, conversations, webhooks: [] };
    });
    for (const [i, p] of seed.projects.entries()) {
      for (const [j, w] of p.webhooks.entries()) {
        let registered: Awaited<ReturnType<typeof services.webhooks.register>>;
        try {
          registered = await services.webhooks.register(owner, projects[i].id, w);
        } catch (err) {
          throw new SeedError(`projects[${i}].webhooks[${j}]: ${(err as Error).message}`);
        }
        projects[i].webhooks.push({ id: registered.row.id, url: w.url, environment: w.environment });
        created.webhooks++;
      }
    }
    return { user: { id: owner.id, email: owner.email }, projects };
  });
  return { applied: true, created, ...records };
}
