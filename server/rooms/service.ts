import { and, eq, sql } from 'drizzle-orm';
import { prepareOnFirstUse } from '../../db/prepare-on-first-use.js';
import { rooms } from '../../db/schema/rooms.js';
import { type EnvironmentScope, inScope, inScopePrepared, scopeValues } from '../../db/scope.js';
import type { Queries } from '../../db/store.js';
import type { Actor } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import type { Infrastructure } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { newestFirstPage } from '../shared/scoped-page.js';

export type RoomRow = typeof rooms.$inferSelect;

export const roomNotFound = (roomId: string) =>
  notFound('SERVICE_ROOM_NOT_FOUND', `No room ${roomId} in this project environment.`);

const catalogueRoom = (room: RoomRow) => ({
  id: room.id,
  name: room.name,
  createdAt: new Date(room.createdAt).toISOString(),
});

export function createRoomService({ store, clock, ids, events }: Infrastructure, audit: AuditService) {
  const { db } = store;
  // Every runtime room route (tokens, participants, joins) starts here: prepared once.
  const findInScope = prepareOnFirstUse(() =>
    db
      .select()
      .from(rooms)
      .where(inScopePrepared(rooms, eq(rooms.id, sql.placeholder('roomId'))))
      .prepare(),
  );
  const roomExists = (name: string) =>
    conflict('SERVICE_ROOM_EXISTS', `A room named "${name}" already exists in this environment.`);

  /** The audit entry of a dashboard user's change to a room, in the transaction of the change. */
  const auditRoom = (tx: Queries, scope: EnvironmentScope, actor: Actor, action: string, room: RoomRow) =>
    audit.record(tx, {
      projectId: scope.projectId,
      actor,
      action,
      target: { type: 'room', id: room.id },
      environment: scope.environment,
      details: { name: room.name },
    });

  /**
   * The room's writes, inside the caller's transaction (a live stream creates its room with itself);
   * `announce` after the commit, so that nothing is told of a room that was rolled back.
   */
  async function createIn(
    tx: Queries,
    scope: EnvironmentScope,
    input: { name: string; maxParticipants?: number; metadata?: Record<string, unknown> },
    auditedBy?: Actor,
  ): Promise<{ room: RoomRow; announce(): void }> {
    const room: RoomRow = {
      id: ids.next('room'),
      ...scopeValues(scope),
      name: input.name,
      maxParticipants: input.maxParticipants ?? null,
      metadata: input.metadata ?? null,
      createdAt: clock.now(),
    };
    const [taken] = await tx
      .select({ id: rooms.id })
      .from(rooms)
      .where(inScope(rooms, scope, eq(rooms.name, room.name)))
      .limit(1);
    if (taken) throw roomExists(room.name);
    await tx.insert(rooms).values(room);
    if (auditedBy) await auditRoom(tx, scope, auditedBy, 'room.created', room);
    return {
      room,
      announce: () => events.emit('catalogue', { type: 'room.created', ...scope, data: { room: catalogueRoom(room) } }),
    };
  }

  return {
    createIn,

    /**
     * Creates a room in the scope. `auditedBy` is given when the dashboard creates it (control-plane
     * changes are audited); runtime creation with an API key is not.
     */
    async create(
      scope: EnvironmentScope,
      input: { name: string; maxParticipants?: number; metadata?: Record<string, unknown> },
      auditedBy?: Actor,
    ): Promise<RoomRow> {
      const created = await store.transaction((tx) => createIn(tx, scope, input, auditedBy));
      created.announce();
      return created.room;
    },

    /** Newest first. */
    list(scope: EnvironmentScope, query: { limit: number; cursor?: string }) {
      return newestFirstPage(db, rooms, scope, query);
    },

    /** The room, if it is in the scope: another environment's room is as unknown as a missing one. */
    async get(scope: EnvironmentScope, roomId: string): Promise<RoomRow> {
      const [room] = await findInScope.execute({ ...scope, roomId });
      if (!room) throw roomNotFound(roomId);
      return room;
    },

    async find(scope: EnvironmentScope, roomId: string): Promise<RoomRow | undefined> {
      const [room] = await findInScope.execute({ ...scope, roomId });
      return room;
    },

    /**
     * Deletes the room; its participants are disconnected and its name is free again. Audited when the
     * dashboard deletes it (`auditedBy`), as creation is.
     */
    async delete(scope: EnvironmentScope, roomId: string, auditedBy?: Actor): Promise<void> {
      const room = await store.transaction(async (tx) => {
        const [deleted] = await tx
          .delete(rooms)
          .where(and(inScope(rooms, scope, eq(rooms.id, roomId))))
          .returning();
        if (!deleted) throw roomNotFound(roomId);
        if (auditedBy) await auditRoom(tx, scope, auditedBy, 'room.deleted', deleted);
        return deleted;
      });
      events.emit('room.deleted', { ...scope, roomId });
      events.emit('catalogue', { type: 'room.deleted', ...scope, data: { room: catalogueRoom(room) } });
    },
  };
}

export type RoomService = ReturnType<typeof createRoomService>;
