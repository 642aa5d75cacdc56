/**
 * The floor of the SFU benchmark, in a process of its own started after the windows (`tsx bench/sfu/floor.ts`, driven
 * by bench/sfu.ts): what forwarding one packet cannot cost less than. Each packet, of the sizes the publisher sent,
 * is protected as SRTP (AES_CM_128_HMAC_SHA1_80 with node:crypto: AES-128-CTR of the payload, HMAC-SHA1 of the
 * header, payload and rollover counter, truncated to 10 bytes; what werift does per packet) and sent once over UDP
 * to a socket of this process, as bench/sfu-spike/sfu.ts measured it. Answers the process CPU time per packet (µs).
 */
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface FloorRequest {
  type: 'floor';
  packets: number;
  sizes: number[];
}
export interface FloorReply {
  type: 'floor';
  cpuMicrosPerPacket: number;
}

const RTP_HEADER_BYTES = 12;

async function floor(packets: number, sizes: number[]): Promise<number> {
  const sink = createSocket('udp4');
  sink.bind(0, '127.0.0.1');
  await once(sink, 'listening');
  const out = createSocket('udp4');
  const port = sink.address().port;
  const key = randomBytes(16);
  const authKey = randomBytes(20);
  const rolloverCounter = Buffer.alloc(4);
  const bodies = sizes.map((size) => randomBytes(Math.max(size, RTP_HEADER_BYTES + 1)));
  const before = process.cpuUsage();
  for (let i = 0; i < packets; i++) {
    const body = bodies[i % bodies.length];
    const header = body.subarray(0, RTP_HEADER_BYTES);
    const counter = randomBytes(16);
    const encrypted = createCipheriv('aes-128-ctr', key, counter).update(body.subarray(RTP_HEADER_BYTES));
    const tag = createHmac('sha1', authKey)
      .update(header)
      .update(encrypted)
      .update(rolloverCounter)
      .digest()
      .subarray(0, 10);
    out.send(Buffer.concat([header, encrypted, tag]), port, '127.0.0.1');
    // Let the sends go out (and the sink read them) as a forwarding loop would, a burst at a time.
    if (i % 100 === 99) await nextTurn();
  }
  await nextTurn();
  const used = process.cpuUsage(before);
  out.close();
  sink.close();
  return (used.user + used.system) / packets;
}

process.on('message', (message: FloorRequest) => {
  if (message.type !== 'floor') return;
  // A first pass warms the JIT and the crypto bindings; the second is the figure.
  void floor(Math.min(2000, message.packets), message.sizes)
    .then(() => floor(message.packets, message.sizes))
    .then((cpuMicrosPerPacket) => {
      process.send?.({ type: 'floor', cpuMicrosPerPacket } satisfies FloorReply);
    });
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
