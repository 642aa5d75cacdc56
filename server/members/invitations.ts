import { and, eq } from 'drizzle-orm';
import { type ProjectRole, projectMembers, projects } from '../../db/schema/projects.js';
import { users } from '../../db/schema/users.js';
import type { Queries } from '../../db/store.js';
import type { AuditService } from '../audit/service.js';
import { createJwtCodec } from '../auth/jwt.js';
import { normalizeEmail } from '../auth/service.js';
import type { Infrastructure } from '../context.js';
import { conflict, notFound, ServiceError, validationFailed } from '../errors.js';
import type { ActingMember } from './service.js';

export const DEFAULT_INVITATION_TTL_HOURS = 72;

export interface Invitation {
  email: string;
  projectId: string;
  role: ProjectRole;
  token: string;
  expiresAt: number;
}

export interface InvitationClaims {
  email: string;
  projectId: string;
  role: ProjectRole;
}

const isRole = (value: unknown): value is ProjectRole =>
  value === 'OWNER' || value === 'ADMIN' || value === 'DEVELOPER' || value === 'VIEWER' || value === 'BILLING';

/**
 * Invitations to a project: how a team adds a colleague who has no account yet, and, on a server whose
 * registration is `first-only`, the only way a new account is created. An invitation is a signed token (its own key
 * and audience) naming the address, the project and the role, valid for a few days; registering with it creates the
 * account and the membership in one transaction. It cannot be used twice: the address then has an account.
 */
export function createInvitationService({ store, keys, clock }: Infrastructure, audit: AuditService) {
  const { db } = store;
  const codec = createJwtCodec(
    keys.signingKey('invitation-signing-key'),
    clock,
    'switchboard:invitation',
    keys.previousSigningKey('invitation-signing-key'),
  );

  return {
    async invite(acting: ActingMember, input: { email: string; role: ProjectRole; ttlHours?: number }) {
      if (input.role === 'OWNER' && acting.role !== 'OWNER') {
        throw new ServiceError('SERVICE_PERMISSION_DENIED', `Your role ${acting.role} cannot invite an OWNER.`);
      }
      const email = normalizeEmail(input.email);
      const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
      if (account) {
        throw conflict(
          'SERVICE_ACCOUNT_EXISTS',
          `${email} already has an account: add it as a member instead (POST /v1/projects/{id}/members).`,
        );
      }
      const expiresAt = clock.now() + (input.ttlHours ?? DEFAULT_INVITATION_TTL_HOURS) * 3_600_000;
      const token = await codec.sign({ prj: acting.projectId, role: input.role }, email, expiresAt);
      await store.transaction((tx) =>
        audit.record(tx, {
          projectId: acting.projectId,
          actor: acting.actor,
          action: 'member.invited',
          target: { type: 'invitation', id: email },
          details: { email, role: input.role, expiresAt: new Date(expiresAt).toISOString() },
        }),
      );
      return { email, projectId: acting.projectId, role: input.role, token, expiresAt } satisfies Invitation;
    },

    /** The claims of a valid invitation for this address, or a 400 that says what is wrong with it. */
    async verify(token: string, email: string): Promise<InvitationClaims> {
      const verified = await codec.verify(token);
      if (!verified.ok) {
        throw validationFailed(
          verified.reason === 'expired'
            ? 'invitation: has expired; ask for a new one.'
            : 'invitation: is not an invitation of this server.',
        );
      }
      const { sub, prj, role } = verified.payload;
      if (typeof sub !== 'string' || typeof prj !== 'string' || !isRole(role)) {
        throw validationFailed('invitation: is not an invitation of this server.');
      }
      if (sub !== normalizeEmail(email)) throw validationFailed(`invitation: was made for another address.`);
      return { email: sub, projectId: prj, role };
    },

    /** Inside the registration's transaction: the new account joins the project it was invited to. */
    async accept(
      tx: Queries,
      claims: InvitationClaims,
      user: { id: string; email: string },
      now: number,
    ): Promise<void> {
      const [project] = await tx
        .select({ id: projects.id })
        .from(projects)
        .where(eq(projects.id, claims.projectId))
        .limit(1);
      if (!project) throw notFound('SERVICE_PROJECT_NOT_FOUND', 'The project of this invitation no longer exists.');
      const [existing] = await tx
        .select({ role: projectMembers.role })
        .from(projectMembers)
        .where(and(eq(projectMembers.projectId, claims.projectId), eq(projectMembers.userId, user.id)))
        .limit(1);
      if (existing) return;
      await tx
        .insert(projectMembers)
        .values({ projectId: claims.projectId, userId: user.id, role: claims.role, createdAt: now });
      await audit.record(tx, {
        projectId: claims.projectId,
        actor: { type: 'user', id: user.id, email: user.email },
        action: 'member.added',
        target: { type: 'user', id: user.id },
        details: { email: user.email, role: claims.role, via: 'invitation' },
      });
    },
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;
