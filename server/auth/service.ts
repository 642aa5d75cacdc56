import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { sessions } from '../../db/schema/sessions.js';
import { users } from '../../db/schema/users.js';
import { wholeSeconds } from '../clock.js';
import type { Infrastructure } from '../context.js';
import { conflict, unauthenticated } from '../errors.js';
import type { SessionAuth } from '../http/route.js';
import { loadOrCreateSecret } from '../secrets.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { createSessionTokens, SESSION_TTL_MS } from './session-tokens.js';

export type UserRow = typeof users.$inferSelect;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function createAuthService({ db, clock, ids }: Infrastructure) {
  const tokens = createSessionTokens(loadOrCreateSecret(db, clock, 'session-signing-key'), clock);
  let decoyHash: Promise<string> | undefined;

  // Runs on every dashboard request: prepared once.
  const findLiveSession = db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .prepare();

  async function openSession(user: UserRow) {
    const now = clock.now();
    const sessionId = ids.next('ses');
    const expiresAt = wholeSeconds(now + SESSION_TTL_MS);
    db.insert(sessions).values({ id: sessionId, userId: user.id, createdAt: now, expiresAt }).run();
    const token = await tokens.sign({ userId: user.id, sessionId }, expiresAt);
    return { token, expiresAt, user };
  }

  return {
    async register(input: { email: string; password: string; name?: string }) {
      const email = normalizeEmail(input.email);
      const taken = () => conflict('SERVICE_EMAIL_TAKEN', `An account already uses ${email}.`);
      if (db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()) throw taken();
      const passwordHash = await hashPassword(input.password);
      const user: UserRow = {
        id: ids.next('usr'),
        email,
        name: input.name ?? null,
        passwordHash,
        createdAt: clock.now(),
      };
      // The hash is slow and async: another registration of the same address may have landed meanwhile.
      const inserted = db.insert(users).values(user).onConflictDoNothing().run();
      if (inserted.changes === 0) throw taken();
      return openSession(user);
    },

    async login(input: { email: string; password: string }) {
      const user = db
        .select()
        .from(users)
        .where(eq(users.email, normalizeEmail(input.email)))
        .get();
      if (!user) {
        // Same work as a real check, so timing does not reveal which addresses have accounts.
        decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
        await verifyPassword(input.password, await decoyHash);
        throw unauthenticated('Wrong email or password.');
      }
      if (!(await verifyPassword(input.password, user.passwordHash))) throw unauthenticated('Wrong email or password.');
      return openSession(user);
    },

    logout(sessionId: string): void {
      db.update(sessions).set({ revokedAt: clock.now() }).where(eq(sessions.id, sessionId)).run();
    },

    /** The session behind a bearer token, or null; a revoked session fails at once. */
    async authenticate(token: string): Promise<SessionAuth | null> {
      const claims = await tokens.verify(token);
      if (!claims) return null;
      const user = findLiveSession.get({ sessionId: claims.sessionId, userId: claims.userId, now: clock.now() });
      return user ? { kind: 'session', user, sessionId: claims.sessionId } : null;
    },

    findUserByEmail(email: string): UserRow | undefined {
      return db
        .select()
        .from(users)
        .where(eq(users.email, normalizeEmail(email)))
        .get();
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
