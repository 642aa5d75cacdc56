import { and, count, eq } from 'drizzle-orm';
import { type ProjectRole, projectMembers } from '../../db/schema/projects.js';
import { users } from '../../db/schema/users.js';
import type { Queries } from '../../db/store.js';
import type { UserActor } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import { normalizeEmail } from '../auth/service.js';
import type { Infrastructure } from '../context.js';
import { conflict, notFound, ServiceError, validationFailed } from '../errors.js';

export interface MemberRow {
  userId: string;
  email: string;
  name: string | null;
  role: ProjectRole;
  createdAt: number;
}

/** The member making the change: who they are and the role they hold in this project. */
export interface ActingMember {
  actor: UserActor;
  projectId: string;
  role: ProjectRole;
}

const memberNotFound = (userId: string) =>
  notFound('SERVICE_MEMBER_NOT_FOUND', `${userId} is not a member of this project.`);

/** Only an owner creates, demotes or removes an owner (spec 5.5 rule 3). */
function requireOwnerFor(acting: ActingMember, what: string): void {
  if (acting.role !== 'OWNER') {
    throw new ServiceError('SERVICE_PERMISSION_DENIED', `Your role ${acting.role} cannot ${what}; only an OWNER can.`);
  }
}

export function createMemberService({ store, clock }: Infrastructure, audit: AuditService) {
  const { db } = store;
  const selectMembers = (tx: Queries) =>
    tx
      .select({
        userId: projectMembers.userId,
        email: users.email,
        name: users.name,
        role: projectMembers.role,
        createdAt: projectMembers.createdAt,
      })
      .from(projectMembers)
      .innerJoin(users, eq(users.id, projectMembers.userId));

  const findMember = async (tx: Queries, projectId: string, userId: string): Promise<MemberRow | undefined> => {
    const [member] = await selectMembers(tx)
      .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)))
      .limit(1);
    return member;
  };

  const ownerCount = async (tx: Queries, projectId: string): Promise<number> => {
    const [row] = await tx
      .select({ n: count() })
      .from(projectMembers)
      .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.role, 'OWNER')));
    return row?.n ?? 0;
  };

  /** A project always keeps at least one owner (spec 5.5 rule 4). */
  async function refuseLastOwner(tx: Queries, projectId: string, target: MemberRow, what: string): Promise<void> {
    if (target.role === 'OWNER' && (await ownerCount(tx, projectId)) <= 1) {
      throw validationFailed(`Cannot ${what} the last OWNER of the project; make another member an OWNER first.`);
    }
  }

  return {
    async list(projectId: string): Promise<MemberRow[]> {
      return selectMembers(db).where(eq(projectMembers.projectId, projectId)).orderBy(projectMembers.createdAt);
    },

    /** The address must already have an account, or nothing is created (invitations are for the others). */
    async add(acting: ActingMember, input: { email: string; role: ProjectRole }): Promise<MemberRow> {
      if (input.role === 'OWNER') requireOwnerFor(acting, 'add an OWNER');
      const email = normalizeEmail(input.email);
      return store.transaction(async (tx) => {
        const [user] = await tx.select().from(users).where(eq(users.email, email)).limit(1);
        if (!user) {
          throw notFound(
            'SERVICE_USER_NOT_FOUND',
            `No account uses ${email}. Invite the address instead (POST /v1/projects/{id}/invitations), or ask them to register, then add them.`,
          );
        }
        if (await findMember(tx, acting.projectId, user.id)) {
          throw conflict('SERVICE_MEMBER_EXISTS', `${email} is already a member of this project.`);
        }
        const createdAt = clock.now();
        await tx
          .insert(projectMembers)
          .values({ projectId: acting.projectId, userId: user.id, role: input.role, createdAt });
        await audit.record(tx, {
          projectId: acting.projectId,
          actor: acting.actor,
          action: 'member.added',
          target: { type: 'user', id: user.id },
          details: { email, role: input.role },
        });
        return { userId: user.id, email, name: user.name, role: input.role, createdAt };
      });
    },

    async setRole(acting: ActingMember, userId: string, role: ProjectRole): Promise<MemberRow> {
      return store.transaction(async (tx) => {
        const target = await findMember(tx, acting.projectId, userId);
        if (!target) throw memberNotFound(userId);
        if (target.role === role) return target;
        if (role === 'OWNER') requireOwnerFor(acting, 'make a member an OWNER');
        if (target.role === 'OWNER') requireOwnerFor(acting, 'change the role of an OWNER');
        await refuseLastOwner(tx, acting.projectId, target, 'demote');
        await tx
          .update(projectMembers)
          .set({ role })
          .where(and(eq(projectMembers.projectId, acting.projectId), eq(projectMembers.userId, userId)));
        await audit.record(tx, {
          projectId: acting.projectId,
          actor: acting.actor,
          action: 'member.role_changed',
          target: { type: 'user', id: userId },
          details: { email: target.email, from: target.role, to: role },
        });
        return { ...target, role };
      });
    },

    async remove(acting: ActingMember, userId: string): Promise<void> {
      await store.transaction(async (tx) => {
        const target = await findMember(tx, acting.projectId, userId);
        if (!target) throw memberNotFound(userId);
        if (target.role === 'OWNER') requireOwnerFor(acting, 'remove an OWNER');
        await refuseLastOwner(tx, acting.projectId, target, 'remove');
        await tx
          .delete(projectMembers)
          .where(and(eq(projectMembers.projectId, acting.projectId), eq(projectMembers.userId, userId)));
        await audit.record(tx, {
          projectId: acting.projectId,
          actor: acting.actor,
          action: 'member.removed',
          target: { type: 'user', id: userId },
          details: { email: target.email, role: target.role },
        });
      });
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
