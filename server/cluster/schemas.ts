import * as z from 'zod';
import { timestampSchema } from '../shared/schemas.js';

export const nodeSchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ description: 'The node, `node_…`: a new id each time a server starts.' }),
      version: z.string().meta({ description: 'The Switchboard version it runs.' }),
      startedAt: timestampSchema,
      connections: z
        .object({
          realtime: z.number().int().meta({ description: 'Chat sockets (`/v1/realtime`) open on it.' }),
          signaling: z.number().int().meta({ description: 'Signaling sockets (`/v1/rtc`) open on it.' }),
        })
        .meta({ description: "As of its last heartbeat (every 5 s); this node's own, as of now." }),
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
