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
      secretKeys: z
        .object({
          held: z.array(z.string()).meta({ description: 'The ids (first characters) of the secret keys it holds.' }),
          sealing: z.string().meta({ description: 'The id of the key it seals webhook secrets with.' }),
        })
        .optional()
        .meta({ description: 'Absent for a node of a version before secret key rotations.' }),
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
      secretKey: secretKeyStatusSchema,
    })
    .meta({ id: 'ServerNodeList' }),
);

export const secretKeyStatusSchema = z
  .object({
    inUse: z.string().meta({ description: 'The id (first characters, never the key) of the key the database uses.' }),
    replaced: z
      .string()
      .nullable()
      .meta({ description: 'During a rotation, the id of the key it replaces, until no stored value needs it.' }),
    pending: z.number().int().meta({ description: 'Webhook signing secrets not yet sealed with the key in use.' }),
    rotation: z.enum(['none', 'waiting', 'rotating', 'done']).meta({
      description:
        '`none`: the server runs on one key; `waiting`: the answering node holds a new key, which the database ' +
        'switches to once every node holds it; `rotating`: stored secrets are being sealed again with the new key; ' +
        '`done`: nothing needs the previous key any more: restart every node without it.',
    }),
  })
  .meta({ id: 'SecretKeyStatus' });
