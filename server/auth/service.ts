import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { prepareOnFirstUse } from '../../db/prepare-on-first-use.js';
import { sessions } from '../../db/schema/sessions.js';
import { users } from '../../db/schema/users.js';
import type { Queries } from '../../db/store.js';
import { wholeSeconds } from '../clock.js';
import type { Infrastructure } from '../context.js';
import { conflict, ServiceError, unauthenticated } from '../errors.js';
import type { SessionAuth } from '../http/route.js';
import type { InvitationClaims, InvitationService } from '../members/invitations.js';
import type { AttemptLimits } from './attempt-limits.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { createSessionTokens, SESSION_TTL_MS } from './session-tokens.js';

export type UserRow = typeof users.$inferSelect;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const registrationClosed = () =>
  new ServiceError(
    'SERVICE_REGISTRATION_CLOSED',
    'This server creates accounts by invitation only. Ask a project owner to invite you ' +
      '(switchboard members invite <email>), then register with the invitation.',
  );

const passwordSignInDisabled = (what: string) =>
  new ServiceError(
    'SERVICE_PASSWORD_SIGN_IN_DISABLED',
    `This server does not ${what} with a password: use single sign-on ("Sign in with …" on the dashboard, ` +
      'or switchboard login --sso).',
  );

/**
 * How long the session a single sign-on made waits for its grant to be redeemed (server/auth/sso/grants.ts): until
 * then no one holds a token for it, and redeeming gives it its full life, once.
 */
export const PENDING_SESSION_MS = 2 * 60 * 1000;

export function createAuthService(
  { store, keys, clock, ids, security, passwordHashing }: Infrastructure,
  invitations: InvitationService,
  limits: AttemptLimits,
) {
  const { db } = store;
  const tokens = createSessionTokens(
    keys.signingKey('session-signing-key'),
    clock,
    keys.previousSigningKey('session-signing-key'),
  );
  let decoyHash: Promise<string> | undefined;
  /** A hash to check passwords against when there is no account, made once. */
  const decoy = () => {
    decoyHash ??= hashPassword(randomBytes(16).toString('hex'), passwordHashing);
    return decoyHash;
  };

  // Runs on every dashboard request: prepared once.
  const findLiveSession = prepareOnFirstUse(() =>
    db
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
      .prepare(),
  );

  /** The session's row, inside the caller's transaction (registration opens one with the account). */
  async function insertSession(tx: Queries, user: UserRow) {
    const now = clock.now();
    const session = {
      id: ids.next('ses'),
      userId: user.id,
      createdAt: now,
      expiresAt: wholeSeconds(now + SESSION_TTL_MS),
    };
    await tx.insert(sessions).values(session);
    return session;
  }

  const isFirstAccount = async (tx: Queries) => {
    const [account] = await tx.select({ id: users.id }).from(users).limit(1);
    return !account;
  };

  /** The token of a session already written: signing is asynchronous, so it comes after the commit. */
  async function sessionToken(user: UserRow, session: { id: string; expiresAt: number }) {
    const token = await tokens.sign({ userId: user.id, sessionId: session.id }, session.expiresAt);
    return { token, expiresAt: session.expiresAt, user };
  }

  return {
    /**
     * Creates an account. With registration `first-only`, only the server's first account needs no invitation; an
     * invitation (on either policy) also makes the new account a member of the project it names.
     */
    async register(
      input: { email: string; password: string; name?: string; invitation?: string },
      /** The client's address, for the per-client attempt limit. */
      client: string,
    ) {
      if (!security.passwordSignIn) throw passwordSignInDisabled('create accounts');
      await limits.beforeRegistration(client);
      const email = normalizeEmail(input.email);
      const taken = () => conflict('SERVICE_EMAIL_TAKEN', `An account already uses ${email}.`);
      const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
      if (existing) throw taken();
      let invited: InvitationClaims | undefined;
      if (input.invitation !== undefined) invited = await invitations.verify(input.invitation, email);
      if (!invited && security.registration === 'first-only' && !(await isFirstAccount(db))) {
        throw registrationClosed();
      }
      const passwordHash = await hashPassword(input.password, passwordHashing);
      const user: UserRow = {
        id: ids.next('usr'),
        email,
        name: input.name ?? null,
        passwordHash,
        createdAt: clock.now(),
      };
      // The hash is slow and async: another registration of the same address (or a first account) may have landed
      // meanwhile, so the checks are made again in the transaction that inserts.
      // The account, its membership and its first session land together or not at all.
      const session = await store.transaction(async (tx) => {
        if (!invited && security.registration === 'first-only' && !(await isFirstAccount(tx))) {
          throw registrationClosed();
        }
        const inserted = await tx.insert(users).values(user).onConflictDoNothing().returning({ id: users.id });
        if (inserted.length === 0) throw taken();
        if (invited) await invitations.accept(tx, invited, user, user.createdAt);
        return insertSession(tx, user);
      });
      return sessionToken(user, session);
    },

    /** Signs in, unless this address or client failed too often lately (429); failures are counted. */
    async login(input: { email: string; password: string }, client: string) {
      if (!security.passwordSignIn) throw passwordSignInDisabled('sign in');
      const email = normalizeEmail(input.email);
      await limits.beforeLogin(email, client);
      const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      // Without an account, the same work as a real check, so timing does not reveal which addresses have one.
      const hash = user?.passwordHash ?? (await decoy());
      const verified = await verifyPassword(input.password, hash);
      if (!user || !verified) {
        await limits.loginFailed(email, client);
        throw unauthenticated('Wrong email or password.');
      }
      await limits.loginSucceeded(email);
      return sessionToken(user, await store.transaction((tx) => insertSession(tx, user)));
    },

    /**
     * The account of an address a single sign-on provider verified (made on its first sign-in, whatever the
     * registration policy: the provider and its allowed domains decide who gets in; a password account of that
     * address is the same account), with a pending session for it (PENDING_SESSION_MS).
     */
    async signInVerifiedEmail(verifiedEmail: string, name: string | undefined) {
      const email = normalizeEmail(verifiedEmail);
      const [existing] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      // A password no one knows: the account signs in through the provider (or after a password reset, were there one).
      // Hashed before the transaction, which awaits nothing but the database.
      const unusableHash = existing ? null : await hashPassword(randomBytes(32).toString('base64url'), passwordHashing);
      const now = clock.now();
      const pending = {
        id: ids.next('ses'),
        createdAt: now,
        expiresAt: wholeSeconds(now + PENDING_SESSION_MS),
      };
      return store.transaction(async (tx) => {
        let [user] = existing ? [existing] : await tx.select().from(users).where(eq(users.email, email)).limit(1);
        if (!user) {
          if (unusableHash === null)
            throw conflict('SERVICE_CONFLICT', 'The account changed during sign-in; try again.');
          const created: UserRow = {
            id: ids.next('usr'),
            email,
            name: name?.trim().slice(0, 100) || null,
            passwordHash: unusableHash,
            createdAt: now,
          };
          // Another first sign-in of the address may land meanwhile: then that account is this one.
          await tx.insert(users).values(created).onConflictDoNothing();
          [user] = await tx.select().from(users).where(eq(users.email, email)).limit(1);
          if (!user) throw conflict('SERVICE_CONFLICT', 'The account changed during sign-in; try again.');
        }
        await tx.insert(sessions).values({ ...pending, userId: user.id });
        return { userId: user.id, sessionId: pending.id, pendingUntil: pending.expiresAt };
      });
    },

    /**
     * Gives a pending session its full life and its token, once: the update matches only while the session still
     * has its pending expiry, so a second redemption (or one after it lapsed) finds nothing and gets null.
     */
    async activatePendingSession(pending: { userId: string; sessionId: string; pendingUntil: number }) {
      const now = clock.now();
      const expiresAt = wholeSeconds(now + SESSION_TTL_MS);
      const [activated] = await store.transaction((tx) =>
        tx
          .update(sessions)
          .set({ expiresAt })
          .where(
            and(
              eq(sessions.id, pending.sessionId),
              eq(sessions.userId, pending.userId),
              eq(sessions.expiresAt, pending.pendingUntil),
              gt(sessions.expiresAt, now),
              isNull(sessions.revokedAt),
            ),
          )
          .returning({ id: sessions.id }),
      );
      if (!activated) return null;
      const [user] = await db.select().from(users).where(eq(users.id, pending.userId)).limit(1);
      return user ? sessionToken(user, { id: activated.id, expiresAt }) : null;
    },

    async logout(sessionId: string): Promise<void> {
      await store.transaction(async (tx) => {
        await tx.update(sessions).set({ revokedAt: clock.now() }).where(eq(sessions.id, sessionId));
      });
    },

    /** The session behind a bearer token, or null; a revoked session fails at once. */
    async authenticate(token: string): Promise<SessionAuth | null> {
      const claims = await tokens.verify(token);
      if (!claims) return null;
      const [user] = await findLiveSession.execute({
        sessionId: claims.sessionId,
        userId: claims.userId,
        now: clock.now(),
      });
      return user ? { kind: 'session', user, sessionId: claims.sessionId } : null;
    },

    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [user] = await db
        .select()
        .from(users)
        .where(eq(users.email, normalizeEmail(email)))
        .limit(1);
      return user;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
