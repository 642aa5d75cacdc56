import * as z from 'zod';
import { environmentSchema } from '../environments.js';
import { timestampSchema } from '../shared/schemas.js';

export const registerBody = z.lazy(() =>
  z
    .strictObject({
      email: z.email('must be an email address').max(254),
      password: z.string().min(8, 'must be at least 8 characters').max(1024),
      name: z.string().trim().min(1).max(100).optional(),
      invitation: z
        .string()
        .max(4096)
        .optional()
        .meta({ description: 'An invitation token (`POST /v1/projects/{id}/invitations`) made for this address.' }),
    })
    .meta({ id: 'RegisterRequest' }),
);

export const loginBody = z.lazy(() =>
  z
    .strictObject({
      email: z.string().max(254),
      password: z.string().max(1024),
    })
    .meta({ id: 'LoginRequest' }),
);

export const userSchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ example: 'usr_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      email: z.email(),
      name: z.string().nullable(),
    })
    .meta({ id: 'User' }),
);

export const sessionSchema = z.lazy(() =>
  z
    .object({
      token: z.string().meta({ description: 'Send as `Authorization: Bearer <token>` on dashboard routes.' }),
      expiresAt: timestampSchema,
      user: userSchema,
    })
    .meta({ id: 'Session' }),
);

export const whoamiSchema = z.lazy(() =>
  z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('session'), user: userSchema }),
      z.object({
        type: z.literal('api_key'),
        keyId: z.string(),
        projectId: z.string(),
        environment: environmentSchema,
      }),
    ])
    .meta({ id: 'Whoami' }),
);
