import * as z from 'zod';
import { environmentSchema } from '../environments.js';
import { cursorSchema, limitSchema } from '../shared/pagination.js';
import { timestampSchema } from '../shared/schemas.js';

export const auditQuery = z.lazy(() =>
  z.strictObject({
    limit: limitSchema(),
    cursor: cursorSchema(),
    action: z.string().max(100).optional().meta({ description: 'Only entries of this action, e.g. `member.added`.' }),
    environment: environmentSchema.optional().meta({ description: 'Only entries about this environment.' }),
  }),
);

export const auditEntrySchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ example: 'aud_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      projectId: z.string(),
      actor: z.object({
        type: z.enum(['user', 'api_key', 'system']),
        id: z.string().nullable(),
        email: z.string().nullable().meta({ description: 'The user’s address at the time of the change.' }),
      }),
      action: z.string().meta({ example: 'api_key.created' }),
      target: z.object({ type: z.string(), id: z.string() }),
      environment: environmentSchema.nullable().meta({ description: 'The environment concerned, where there is one.' }),
      details: z.record(z.string(), z.unknown()),
      createdAt: timestampSchema,
    })
    .meta({ id: 'AuditEntry' }),
);
