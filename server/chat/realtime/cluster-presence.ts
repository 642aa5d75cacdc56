import type { Redis } from 'ioredis';
import { NODE_KEY_PREFIX } from '../../cluster/node-registry.js';

/** Each node's hash of the users it holds sockets of: field = the hub's user key, value = its sockets on that node. */
const HASH_PREFIX = 'switchboard:presence:';
/** The ids of the nodes that have such a hash (or had: a node gone is swept from it). */
const NODES_KEY = 'switchboard:presence-nodes';

// Every script below gets KEYS = [this node's hash, NODES_KEY] and ARGV = [HASH_PREFIX, this node's id, …its own].
// They read the hashes of other nodes, which they do not declare in KEYS: they need one Redis (not a Redis
// Cluster), as the bus does. Each runs atomically, so that of two nodes deciding at once whether a user is the first
// online or the last offline anywhere, one sees what the other did. (Sent whole with EVAL: a few hundred bytes.)

/** `held(field, skip)`: whether a node other than `skip` (this one) holds sockets of the user. */
const HELD_ELSEWHERE = `
local function held(field, skip)
  for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do
    if id ~= skip and redis.call('HEXISTS', ARGV[1] .. id, field) == 1 then return true end
  end
  return false
end
`;

/**
 * This node now holds ARGV[4] sockets of the user ARGV[3] (ARGV[2] is its id). Answers 1 if that made the user online
 * anywhere (none before), -1 if offline everywhere (none left), 0 otherwise.
 */
const SET_SCRIPT = `${HELD_ELSEWHERE}
local self, field, count = ARGV[2], ARGV[3], tonumber(ARGV[4])
local had = redis.call('HEXISTS', KEYS[1], field) == 1
if count > 0 then
  redis.call('HSET', KEYS[1], field, count)
  redis.call('SADD', KEYS[2], self)
else
  redis.call('HDEL', KEYS[1], field)
end
if had == (count > 0) or held(field, self) then return 0 end
if count > 0 then return 1 end
return -1
`;

/**
 * Replaces this node's hash with the pairs (field, count) from ARGV[3] on. Answers the users it made online anywhere
 * and those it made offline everywhere.
 */
const REPLACE_SCRIPT = `${HELD_ELSEWHERE}
local self = ARGV[2]
local before, now = {}, {}
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do before[field] = true end
redis.call('DEL', KEYS[1])
for i = 3, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  now[ARGV[i]] = true
end
if #ARGV > 2 then redis.call('SADD', KEYS[2], self) else redis.call('SREM', KEYS[2], self) end
local online, offline = {}, {}
for field in pairs(now) do
  if not before[field] and not held(field, self) then table.insert(online, field) end
end
for field in pairs(before) do
  if not now[field] and not held(field, self) then table.insert(offline, field) end
end
return {online, offline}
`;

/**
 * Deletes the hashes of the nodes whose record (ARGV[3] .. id) is gone: they died, or stopped. Answers the users
 * that left offline everywhere, and whether this node (ARGV[2]) is still among those with a hash. Whichever node runs
 * it first sweeps a dead node; the others find nothing left to sweep. A node that has just started has its record
 * before it has a hash (it beats before serving): it is never taken for a dead one.
 */
const SWEEP_SCRIPT = `
local prefix, self, records = ARGV[1], ARGV[2], ARGV[3]
local live, gone = {}, {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if id == self or redis.call('EXISTS', records .. id) == 1 then table.insert(live, id) else table.insert(gone, id) end
end
local offline, seen = {}, {}
for _, id in ipairs(gone) do
  for _, field in ipairs(redis.call('HKEYS', prefix .. id)) do
    if not seen[field] then
      seen[field] = true
      local held = false
      for _, other in ipairs(live) do
        if redis.call('HEXISTS', prefix .. other, field) == 1 then
          held = true
          break
        end
      end
      if not held then table.insert(offline, field) end
    end
  end
  redis.call('DEL', prefix .. id)
  redis.call('SREM', KEYS[2], id)
end
return {offline, redis.call('SISMEMBER', KEYS[2], self)}
`;

/** The sockets of each user from ARGV[3] on, summed over every node's hash. */
const COUNT_SCRIPT = `
local totals = {}
for i = 3, #ARGV do totals[i - 2] = 0 end
for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  for i = 3, #ARGV do
    local count = redis.call('HGET', ARGV[1] .. id, ARGV[i])
    if count then totals[i - 2] = totals[i - 2] + tonumber(count) end
  end
end
return totals
`;

/**
 * Presence across the nodes, in Redis: each node keeps there how many sockets of each user it holds (the hub's user
 * keys), so that a user is online while any node holds one. Counts are written whole (never incremented): a write
 * lost while Redis was away is mended by the next `replace`, which writes them all again.
 */
export function createClusterPresence(redis: Redis, nodeId: string) {
  const ownHash = `${HASH_PREFIX}${nodeId}`;
  const run = (script: string, ...args: (string | number)[]) =>
    redis.eval(script, 2, ownHash, NODES_KEY, HASH_PREFIX, nodeId, ...args);

  return {
    /**
     * This node now holds `count` sockets of the user (0: none): answers true if that made them online anywhere,
     * false if offline everywhere, undefined if their presence did not change.
     */
    async set(key: string, count: number): Promise<boolean | undefined> {
      const change = (await run(SET_SCRIPT, key, count)) as number;
      return change === 0 ? undefined : change > 0;
    },

    /** This node's sockets are now `counts` by user, whatever Redis had of them: who that made online or offline. */
    async replace(counts: ReadonlyMap<string, number>): Promise<{ online: string[]; offline: string[] }> {
      const [online, offline] = (await run(REPLACE_SCRIPT, ...[...counts].flat())) as [string[], string[]];
      return { online, offline };
    },

    /** Forgets users of this node without a presence change (their environment was reset: nobody is left to tell). */
    async forget(keys: string[]): Promise<void> {
      if (keys.length > 0) await redis.hdel(ownHash, ...keys);
    },

    /**
     * Clears what the nodes no longer alive left behind: answers the users that left offline everywhere, and whether
     * this node's own hash is still known (another node sweeps it too if this one missed its heartbeats).
     */
    async sweep(): Promise<{ offline: string[]; registered: boolean }> {
      const [offline, registered] = (await run(SWEEP_SCRIPT, NODE_KEY_PREFIX)) as [string[], number];
      return { offline, registered: registered === 1 };
    },

    /** Each user's sockets on every node. */
    async counts(keys: string[]): Promise<number[]> {
      if (keys.length === 0) return [];
      return (await run(COUNT_SCRIPT, ...keys)) as number[];
    },
  };
}

export type ClusterPresence = ReturnType<typeof createClusterPresence>;
