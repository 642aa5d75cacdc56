import { and, count, eq } from 'drizzle-orm';
import { type ProjectRole, projectMembers } from '../../db/schema/projects.js';
import { users } from '../../db/schema/users.js';
import type { UserActor } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import { normalizeEmail } from '../auth/service.js';
import type { Executor, Infrastructure } from '../context.js';
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

export function createMemberService({ db, clock }: Infrastructure, audit: AuditService) {
  const selectMembers = (tx: Executor) =>
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

  const findMember = (tx: Executor, projectId: string, userId: string) =>
    selectMembers(tx)
      .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)))
      .get();

  const ownerCount = (tx: Executor, projectId: string) =>
    tx
      .select({ n: count() })
      .from(projectMembers)
      .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.role, 'OWNER')))
      .get()?.n ?? 0;

  /** A project always keeps at least one owner (spec 5.5 rule 4). */
  function refuseLastOwner(tx: Executor, projectId: string, target: MemberRow, what: string): void {
    if (target.role === 'OWNER' && ownerCount(tx, projectId) <= 1) {
      throw validationFailed(`Cannot ${what} the last OWNER of the project; make another member an OWNER first.`);
    }
  }

  return {
    list(projectId: string): MemberRow[] {
      return selectMembers(db).where(eq(projectMembers.projectId, projectId)).orderBy(projectMembers.createdAt).all();
    },

    /** The address must already have an account, or nothing is created (invitations are for the others). */
    add(acting: ActingMember, input: { email: string; role: ProjectRole }): MemberRow {
      if (input.role === 'OWNER') requireOwnerFor(acting, 'add an OWNER');
      const email = normalizeEmail(input.email);
      return db.transaction((tx) => {
        const user = tx.select().from(users).where(eq(users.email, email)).get();
        if (!user) {
          throw notFound(
            'SERVICE_USER_NOT_FOUND',
            `No account uses ${email}. Invite the address instead (POST /v1/projects/{id}/invitations), or ask them to register, then add them.`,
          );
        }
        if (findMember(tx, acting.projectId, user.id)) {
          throw conflict('SERVICE_MEMBER_EXISTS', `${email} is already a member of this project.`);
        }
        const createdAt = clock.now();
        tx.insert(projectMembers)
          .values({ projectId: acting.projectId, userId: user.id, role: input.role, createdAt })
          .run();
        audit.record(tx, {
          projectId: acting.projectId,
          actor: acting.actor,
          action: 'member.added',
          target: { type: 'user', id: user.id },
          details: { email, role: input.role },
        });
        return { userId: user.id, email, name: user.name, role: input.role, createdAt };
      });
    },

    setRole(acting: ActingMember, userId: string, role: ProjectRole): MemberRow {
      return db.transaction((tx) => {
        const target = findMember(tx, acting.projectId, userId);
        if (!target) throw memberNotFound(userId);
        if (target.role === role) return target;
        if (role === 'OWNER') requireOwnerFor(acting, 'make a member an OWNER');
        if (target.role === 'OWNER') requireOwnerFor(acting, 'change the role of an OWNER');
        refuseLastOwner(tx, acting.projectId, target, 'demote');
        tx.update(projectMembers)
          .set({ role })
          .where(and(eq(projectMembers.projectId, acting.projectId), eq(projectMembers.userId, userId)))
          .run();
        audit.record(tx, {
          projectId: acting.projectId,
          actor: acting.actor,
          action: 'member.role_changed',
          target: { type: 'user', id: userId },
          details: { email: target.email, from: target.role, to: role },
        });
        return { ...target, role };
      });
    },

    remove(acting: ActingMember, userId: string): void {
      db.transaction((tx) => {
        const target = findMember(tx, acting.projectId, userId);
        if (!target) throw memberNotFound(userId);
        if (target.role === 'OWNER') requireOwnerFor(acting, 'remove an OWNER');
        refuseLastOwner(tx, acting.projectId, target, 'remove');
        tx.delete(projectMembers)
          .where(and(eq(projectMembers.projectId, acting.projectId), eq(projectMembers.userId, userId)))
          .run();
        audit.record(tx, {
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
