import { randomFillSync } from 'node:crypto';
import type { Clock } from './clock.js';

export type IdPrefix =
  | 'usr'
  | 'ses'
  | 'prj'
  | 'key'
  | 'room'
  | 'conv'
  | 'msg'
  | 'att'
  | 'ls'
  | 'wh'
  | 'whd'
  | 'evt'
  | 'req'
  | 'conn'
  | 'err'
  | 'aud'
  /** A fault injected into an environment (server/faults). */
  | 'flt'
  /** A recording of an environment's traffic, and one of its entries (server/recordings). */
  | 'rec'
  | 'rce'
  /** A server node: its id in the cluster, and the owner of the webhook deliveries it claims. */
  | 'node';

// Crockford base32: sorts the same as a string and as a number.
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Cryptographic random bytes, drawn from OpenSSL 4 KB at a time: every request takes an id or two, and with one
 * call into OpenSSL per id a message POST cost ≈15% more CPU (258 against 218 µs; one subscriber, pinned, medians
 * of three 10 s runs of `BENCH_ONLY=chat`, 2026-11-23). Each byte is handed out once; the pool is
 * process-wide state, like Node's own for `randomUUID`, because randomness is the same for every server.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++];
}

/** `length` characters from `alphabet`, uniformly (rejection sampling avoids modulo bias). */
export function randomString(length: number, alphabet = BASE62): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < limit) out += alphabet[byte % alphabet.length];
  }
  return out;
}

export interface IdGenerator {
  /** `prefix_` then a ULID-like body: ids of one prefix sort in creation order. */
  next(prefix: IdPrefix): string;
}

/**
 * Time-ordered ids (10 base32 chars of milliseconds, 16 of randomness). Within one millisecond the
 * random part is incremented rather than redrawn, so ids made by one server never go backwards;
 * that is what lets list cursors be plain ids.
 */
export function createIdGenerator(clock: Clock): IdGenerator {
  let lastTime = -1;
  let lastRandom: number[] = [];
  return {
    next(prefix) {
      let time = clock.now();
      if (time <= lastTime) {
        time = lastTime;
        incrementBase32(lastRandom);
      } else {
        lastTime = time;
        // 256 is a multiple of 32: the low five bits of a byte are a uniform base32 digit. A plain loop: an
        // `Array.from({length: 16}, …)` here read its array-like by generic property lookups, ≈13,000 instructions
        // per id (callgrind), two ids per message POST.
        lastRandom = [];
        for (let i = 0; i < 16; i++) lastRandom.push(randomByte() & 31);
      }
      let timePart = '';
      for (let i = 0, t = time; i < 10; i++, t = Math.floor(t / 32)) timePart = BASE32[t % 32] + timePart;
      let randomPart = '';
      for (const digit of lastRandom) randomPart += BASE32[digit];
      return `${prefix}_${timePart}${randomPart}`;
    },
  };
}

function incrementBase32(digits: number[]): void {
  for (let i = digits.length - 1; i >= 0; i--) {
    if (digits[i] < 31) {
      digits[i]++;
      return;
    }
    digits[i] = 0;
  }
}
