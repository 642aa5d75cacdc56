import * as z from 'zod';
import { timestampSchema } from '../shared/schemas.js';

export const nodeSchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ description: 'The node, `node_…`: a new id each time a server starts.' }),
      version: z.string().meta({ description: 'The Switchboard version it runs.' }),
      host: z.string().meta({
        description: "Where it listens: its machine's name when bound to every address (0.0.0.0), else that address.",
      }),
      port: z.number().int().meta({ description: 'The port it listens on.' }),
      startedAt: timestampSchema,
      heartbeatAt: timestampSchema.meta({
        description: 'When the node last said it was alive (every 5 s): its `connections` are as of then.',
      }),
      connections: z
        .object({
          realtime: z.number().int().meta({ description: 'Chat sockets (`/v1/realtime`) open on it.' }),
          signaling: z.number().int().meta({ description: 'Signaling sockets (`/v1/rtc`) open on it.' }),
        })
        .meta({ description: "As of `heartbeatAt`; the answering node's own, as of now." }),
      self: z.boolean().meta({ description: 'Whether this is the node that answered.' }),
    })
    .meta({ id: 'ServerNode' }),
);

export const nodeListSchema = z.lazy(() =>
  z
    .object({
      data: z.array(nodeSchema),
      bus: z.enum(['none', 'up', 'down']).meta({
        description:
          '`none`: one server alone, without Redis; `up`: the nodes hear each other through Redis; `down`: Redis is ' +
          'lost, and this node sees only itself.',
      }),
    })
    .meta({ id: 'ServerNodeList' }),
);
