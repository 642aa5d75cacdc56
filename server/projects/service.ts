import { and, eq, sql } from 'drizzle-orm';
import { prepareOnFirstUse } from '../../db/prepare-on-first-use.js';
import { type ProjectRole, projectMembers, projects } from '../../db/schema/projects.js';
import type { Actor, UserActor } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import type { Infrastructure } from '../context.js';
import { projectNotFound } from '../errors.js';

export type ProjectRow = typeof projects.$inferSelect;

export function createProjectService({ store, clock, ids, logger, events }: Infrastructure, audit: AuditService) {
  const { db } = store;
  // Every project route asks this first: prepared once.
  const findRole = prepareOnFirstUse(() =>
    db
      .select({ role: projectMembers.role })
      .from(projectMembers)
      .where(
        and(
          eq(projectMembers.projectId, sql.placeholder('projectId')),
          eq(projectMembers.userId, sql.placeholder('userId')),
        ),
      )
      .prepare(),
  );

  return {
    /** The caller's role in the project, or undefined when not a member (or no such project). */
    async roleOf(projectId: string, userId: string): Promise<ProjectRole | undefined> {
      const [member] = await findRole.execute({ projectId, userId });
      return member?.role;
    },

    /** The creator becomes its first OWNER member in the same transaction. */
    async create(actor: UserActor, input: { name: string }): Promise<ProjectRow> {
      const now = clock.now();
      const project: ProjectRow = {
        id: ids.next('prj'),
        name: input.name,
        ownerId: actor.id,
        createdAt: now,
        updatedAt: now,
      };
      await store.transaction(async (tx) => {
        await tx.insert(projects).values(project);
        await tx
          .insert(projectMembers)
          .values({ projectId: project.id, userId: actor.id, role: 'OWNER', createdAt: now });
        await audit.record(tx, {
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
    async listForUser(userId: string): Promise<(ProjectRow & { role: ProjectRole })[]> {
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
        .orderBy(projects.id);
    },

    async get(projectId: string): Promise<ProjectRow> {
      const [project] = await db.select().from(projects).where(eq(projects.id, projectId)).limit(1);
      if (!project) throw projectNotFound();
      return project;
    },

    async update(actor: Actor, projectId: string, patch: { name?: string }): Promise<ProjectRow> {
      return store.transaction(async (tx) => {
        const [before] = await tx.select().from(projects).where(eq(projects.id, projectId)).limit(1);
        if (!before) throw projectNotFound();
        if (patch.name === undefined || patch.name === before.name) return before;
        const [after] = await tx
          .update(projects)
          .set({ name: patch.name, updatedAt: clock.now() })
          .where(eq(projects.id, projectId))
          .returning();
        await audit.record(tx, {
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
    async delete(actor: Actor, projectId: string): Promise<void> {
      const deleted = await store.transaction(async (tx) =>
        tx.delete(projects).where(eq(projects.id, projectId)).returning({ id: projects.id }),
      );
      if (deleted.length === 0) throw projectNotFound();
      logger.info({ projectId, actor }, 'project deleted');
      events.emit('project.deleted', { projectId });
    },
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
