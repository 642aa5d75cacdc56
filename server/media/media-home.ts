/**
 * A room's *media home* with several nodes (`--rtc-media sfu`): the one node whose media process holds the room's
 * media, recorded in Redis beside the room's participants (server/rtc/cluster-roster.ts). The first participant to
 * need media after the room was empty makes its own node the home; every other node reads it; it is given up when the
 * room empties or its node stops cleanly, and a home whose node is no longer alive is taken over by the next join.
 */
import type { Redis } from 'ioredis';
import { NODE_KEY_PREFIX } from '../cluster/node-registry.js';
import { roomKey } from '../rtc/cluster-roster.js';

/** The room's home: a node id. */
const homeKey = (roomId: string) => `switchboard:rtc:media-home:${roomId}`;

/**
 * The room's home, made node ARGV[1] when there is none or its node's record (ARGV[2] .. home) has expired: a home that
 * died takes the room's media with it, so a join after that starts afresh on the joining node.
 */
const CLAIM = `
local home = redis.call('GET', KEYS[1])
if home and redis.call('EXISTS', ARGV[2] .. home) == 1 then return home end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
`;

/** Gives up the home if it is still node ARGV[1] and the room (KEYS[2]) has nobody left, in one step with the check. */
const RELEASE_IF_EMPTY = `
if redis.call('GET', KEYS[1]) == ARGV[1] and redis.call('HLEN', KEYS[2]) == 0 then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`;

/** Gives up the home if it is still node ARGV[1] (a lost node, or this one stopping). */
const ABANDON = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`;

export function createMediaHomes(redis: Redis, nodeId: string) {
  return {
    /**
     * The room's home node, this one if the room had none (or a dead one). Called once the participant has its place
     * in the room: a room whose last participant is leaving meanwhile then counts it, and keeps its home.
     */
    async claim(roomId: string): Promise<string> {
      return (await redis.eval(CLAIM, 1, homeKey(roomId), nodeId, NODE_KEY_PREFIX)) as string;
    },

    /** Called by the home after each leave: whether the room was empty and its home is given up. */
    async releaseIfEmpty(roomId: string): Promise<boolean> {
      return (await redis.eval(RELEASE_IF_EMPTY, 2, homeKey(roomId), roomKey(roomId), nodeId)) === 1;
    },

    /**
     * This node stops: the homes of `roomIds` that still name it are given up (compare and delete), so that the next
     * join picks a new one without waiting for this node's record to expire. Resolves to the rooms whose home it was.
     */
    async releaseAll(roomIds: readonly string[]): Promise<string[]> {
      const released = await Promise.all(
        roomIds.map(async (roomId) => (await redis.eval(ABANDON, 1, homeKey(roomId), nodeId)) === 1),
      );
      return roomIds.filter((_roomId, index) => released[index]);
    },

    /** The room's home is no longer lost node `node`: the next join picks a new one. */
    async abandon(roomId: string, node: string): Promise<void> {
      await redis.eval(ABANDON, 1, homeKey(roomId), node);
    },
  };
}

export type MediaHomes = ReturnType<typeof createMediaHomes>;
