import type { Redis } from 'ioredis';
import type { Environment } from '../../db/schema/environment.js';
import type { RtcPermissions } from './permissions.js';

/** A participant as every node sees it: its place in its room's record in Redis. */
export interface RosterEntry {
  /** The node holding its socket, and its connection there (`conn_` id). */
  node: string;
  conn: string;
  identity: string;
  name: string | null;
  joinedAt: number;
  permissions: RtcPermissions;
  /** What another node needs to announce its leaving, should its own node be lost. */
  projectId: string;
  environment: Environment;
  roomName: string;
}

/** A room's participants: identity → RosterEntry (JSON). */
export const roomKey = (roomId: string) => `switchboard:rtc:room:${roomId}`;
/** Where a node's participants are: a set of `[roomId, identity]` (JSON), to find them if the node is lost. */
const nodeKey = (nodeId: string) => `switchboard:rtc:node:${nodeId}`;
/** The nodes that have had participants: those to look after once lost. */
const NODES_KEY = 'switchboard:rtc:nodes';
/** Taken by the one node that removes a lost node's participants. */
const sweepKey = (nodeId: string) => `switchboard:rtc:sweep:${nodeId}`;
/** Long enough for a sweep to finish; a node that died sweeping leaves the claim to expire, and another sweeps. */
const SWEEP_CLAIM_MS = 60_000;

const placeOf = (roomId: string, identity: string) => JSON.stringify([roomId, identity]);

/**
 * Takes the identity's place in the room, unless the room holds `max` others (-1: no limit): a place held by the same
 * identity is taken over whatever the count. Answers nil when full, else the entry it replaced ('' for none) and
 * every entry of the room now.
 */
const TAKE = `
local previous = redis.call('HGET', KEYS[1], ARGV[1])
local max = tonumber(ARGV[3])
if not previous and max >= 0 and redis.call('HLEN', KEYS[1]) >= max then return false end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[4])
redis.call('SADD', KEYS[3], ARGV[5])
return {previous or '', redis.call('HVALS', KEYS[1])}
`;

/**
 * Gives up the identity's place if connection ARGV[2] still holds it (a newer connection may have taken it over), and
 * takes it off the list of node ARGV[4] unless that node holds the place again. Answers 1 if the place was given up.
 */
const RELEASE = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
local released = 0
if current and cjson.decode(current).conn == ARGV[2] then
  redis.call('HDEL', KEYS[1], ARGV[1])
  released = 1
  current = nil
end
if not current or cjson.decode(current).node ~= ARGV[4] then redis.call('SREM', KEYS[2], ARGV[3]) end
return released
`;

const byJoinTime = (a: RosterEntry, b: RosterEntry) => a.joinedAt - b.joinedAt || a.identity.localeCompare(b.identity);
const parse = (json: string) => JSON.parse(json) as RosterEntry;

/**
 * Who is in each room, whichever node holds their socket: one Redis hash per room, written by Lua scripts so that
 * two joins on two nodes cannot both take a room's last place. Every command rejects at once while Redis is away.
 */
export function createClusterRoster(redis: Redis, nodeId: string) {
  return {
    /** Takes `entry`'s place in its room: 'full' when the room holds `max` others already. */
    async take(
      roomId: string,
      entry: RosterEntry,
      max: number | null,
    ): Promise<'full' | { previous: RosterEntry | undefined; members: RosterEntry[] }> {
      const answer = (await redis.eval(
        TAKE,
        3,
        roomKey(roomId),
        nodeKey(entry.node),
        NODES_KEY,
        entry.identity,
        JSON.stringify(entry),
        max ?? -1,
        placeOf(roomId, entry.identity),
        entry.node,
      )) as [string, string[]] | null;
      if (answer === null) return 'full';
      const [previous, members] = answer;
      return { previous: previous === '' ? undefined : parse(previous), members: members.map(parse).sort(byJoinTime) };
    },

    /** Gives up the place of connection `conn` of node `node` (this one unless sweeping a lost one), if it holds it. */
    async release(roomId: string, identity: string, conn: string, node = nodeId): Promise<boolean> {
      const released = await redis.eval(
        RELEASE,
        2,
        roomKey(roomId),
        nodeKey(node),
        identity,
        conn,
        placeOf(roomId, identity),
        node,
      );
      return released === 1;
    },

    /** The room's participants, earliest first. */
    async list(roomId: string): Promise<RosterEntry[]> {
      return (await redis.hvals(roomKey(roomId))).map(parse).sort(byJoinTime);
    },

    async find(roomId: string, identity: string): Promise<RosterEntry | undefined> {
      const entry = await redis.hget(roomKey(roomId), identity);
      return entry === null ? undefined : parse(entry);
    },

    count: (roomId: string): Promise<number> => redis.hlen(roomKey(roomId)),

    /** The places node `node` holds or held, with what holds each now (another node's entry, or none). */
    async placesOf(node: string): Promise<{ roomId: string; identity: string; entry: RosterEntry | undefined }[]> {
      const places = (await redis.smembers(nodeKey(node))).map((place) => JSON.parse(place) as [string, string]);
      if (places.length === 0) return [];
      const pipeline = redis.pipeline();
      for (const [roomId, identity] of places) pipeline.hget(roomKey(roomId), identity);
      const entries = (await pipeline.exec()) ?? [];
      return places.map(([roomId, identity], i) => {
        const [err, entry] = entries[i] ?? [];
        if (err) throw err;
        return { roomId, identity, entry: typeof entry === 'string' ? parse(entry) : undefined };
      });
    },

    /** The nodes that have had participants, this one included. */
    nodes: (): Promise<string[]> => redis.smembers(NODES_KEY),

    /** Whether this node is the one to remove lost node `node`'s participants. */
    async claimSweep(node: string): Promise<boolean> {
      return (await redis.set(sweepKey(node), nodeId, 'PX', SWEEP_CLAIM_MS, 'NX')) === 'OK';
    },

    /** Lost node `node` holds nothing any more. */
    async forget(node: string): Promise<void> {
      await redis.multi().del(nodeKey(node)).srem(NODES_KEY, node).exec();
    },
  };
}

export type ClusterRoster = ReturnType<typeof createClusterRoster>;
