import * as z from 'zod';

const trackMediaSchema = z.lazy(() =>
  z.object({
    direction: z.enum(['publish', 'subscribe']).meta({
      description: '`publish`: a track the participant sends to the server; `subscribe`: one the server sends it.',
    }),
    kind: z.enum(['audio', 'video']),
    from: z.string().meta({ description: 'The identity whose track it is (the participant itself for `publish`).' }),
    packets: z.number().int().meta({ description: 'RTP packets received from the publisher, or sent to it.' }),
    bytes: z.number().int().meta({ description: 'RTP payload bytes received from the publisher, or sent to it.' }),
    packetsLost: z
      .number()
      .int()
      .meta({
        description:
          '`publish`: packets lost before the server (sequence-number gaps on receipt, less those that came late); ' +
          '`subscribe`: the participant’s own count, from its RTCP receiver reports (0 before its first report).',
      }),
    lossPercent: z.number().meta({ description: '`packetsLost` over the packets expected, 0 to 100.', example: 0.4 }),
    bitrate: z.number().int().meta({
      description: 'Bits per second of payload over the last 5 seconds (0 in the first second).',
      example: 480_000,
    }),
  }),
);

export const roomMediaSchema = z.lazy(() =>
  z
    .object({
      mode: z.enum(['sfu', 'mesh']).meta({
        description:
          '`sfu`: media goes through the server (`serve --rtc-media sfu`), which counts it; `mesh`: peer to peer, ' +
          'never through the server, so `participants` is empty.',
      }),
      participants: z.array(
        z.object({
          identity: z.string(),
          connectionId: z.string().meta({ description: 'Its `conn_` id, as in the connection log.' }),
          tracks: z.array(trackMediaSchema),
        }),
      ),
    })
    .meta({ id: 'RoomMedia' }),
);
