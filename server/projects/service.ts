import { and, eq, sql } from 'drizzle-orm';
import { type ProjectRole, projectMembers, projects } from '../../db/schema/projects.js';
import type { Actor, UserActor } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import type { Infrastructure } from '../context.js';
import { projectNotFound } from '../errors.js';

export type ProjectRow = typeof projects.$inferSelect;

export function createProjectService({ db, clock, ids, logger, events }: Infrastructure, audit: AuditService) {
  // Every project route asks this first: prepared once.
  const findRole = db
    .select({ role: projectMembers.role })
    .from(projectMembers)
    .where(
      and(
        eq(projectMembers.projectId, sql.placeholder('projectId')),
        eq(projectMembers.userId, sql.placeholder('userId')),
      ),
    )
    .prepare();

  return {
    /** The caller's role in the project, or undefined when not a member (or no such project). */
    roleOf(projectId: string, userId: string): ProjectRole | undefined {
      return findRole.get({ projectId, userId })?.role;
    },

    /** The creator becomes its first OWNER member in the same transaction. */
    create(actor: UserActor, input: { name: string }): ProjectRow {
      const now = clock.now();
      const project: ProjectRow = {
        id: ids.next('prj'),
        name: input.name,
        ownerId: actor.id,
        createdAt: now,
        updatedAt: now,
      };
      db.transaction((tx) => {
        tx.insert(projects).values(project).run();
        tx.insert(projectMembers)
          .values({ projectId: project.id, userId: actor.id, role: 'OWNER', createdAt: now })
          .run();
        audit.record(tx, {
          projectId: project.id,
          actor,
          action: 'project.created',
          target: { type: 'project', id: project.id },
          details: { name: project.name },
        });
      });
      return project;
    },

    /** Projects the user is a member of, with the user's role in each, oldest first. */
    listForUser(userId: string): (ProjectRow & { role: ProjectRole })[] {
      return db
        .select({
          id: projects.id,
          name: projects.name,
          ownerId: projects.ownerId,
          createdAt: projects.createdAt,
          updatedAt: projects.updatedAt,
          role: projectMembers.role,
        })
        .from(projects)
        .innerJoin(projectMembers, eq(projectMembers.projectId, projects.id))
        .where(eq(projectMembers.userId, userId))
        .orderBy(projects.id)
        .all();
    },

    get(projectId: string): ProjectRow {
      const project = db.select().from(projects).where(eq(projects.id, projectId)).get();
      if (!project) throw projectNotFound();
      return project;
    },

    update(actor: Actor, projectId: string, patch: { name?: string }): ProjectRow {
      return db.transaction((tx) => {
        const before = tx.select().from(projects).where(eq(projects.id, projectId)).get();
        if (!before) throw projectNotFound();
        if (patch.name === undefined || patch.name === before.name) return before;
        const after = tx
          .update(projects)
          .set({ name: patch.name, updatedAt: clock.now() })
          .where(eq(projects.id, projectId))
          .returning()
          .get();
        audit.record(tx, {
          projectId,
          actor,
          action: 'project.updated',
          target: { type: 'project', id: projectId },
          details: { name: { from: before.name, to: after.name } },
        });
        return after;
      });
    },

    /**
     * Deletes the project and everything in it (members, keys, environment data, its audit log),
     * by foreign-key cascade. The deletion itself is logged by the server, since the log is gone.
     */
    delete(actor: Actor, projectId: string): void {
      const deleted = db.delete(projects).where(eq(projects.id, projectId)).run();
      if (deleted.changes === 0) throw projectNotFound();
      logger.info({ projectId, actor }, 'project deleted');
      events.emit('project.deleted', { projectId });
    },
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
