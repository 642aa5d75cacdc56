import * as z from 'zod';
import { PROJECT_ROLES } from '../../db/schema/projects.js';
import { CAPABILITIES } from '../roles/capabilities.js';
import { timestampSchema } from '../shared/schemas.js';
import { MAX_INVITATION_HOURS } from './limits.js';

export const roleSchema = z.lazy(() => z.enum(PROJECT_ROLES).meta({ id: 'ProjectRole' }));

export const addMemberBody = z.lazy(() =>
  z.strictObject({ email: z.email('must be an email address'), role: roleSchema }).meta({ id: 'AddMemberRequest' }),
);

export const updateMemberBody = z.lazy(() => z.strictObject({ role: roleSchema }).meta({ id: 'UpdateMemberRequest' }));

export const memberSchema = z.lazy(() =>
  z
    .object({
      userId: z.string(),
      email: z.email(),
      name: z.string().nullable(),
      role: roleSchema,
      capabilities: z
        .array(z.enum(CAPABILITIES))
        .meta({ description: 'What the role allows, so clients keep no table of their own.' }),
      joinedAt: timestampSchema,
    })
    .meta({ id: 'Member' }),
);

export const createInvitationBody = z.lazy(() =>
  z
    .strictObject({
      email: z.email('must be an email address'),
      role: roleSchema,
      ttlHours: z
        .int()
        .min(1)
        .max(MAX_INVITATION_HOURS)
        .optional()
        .meta({ description: 'How long the invitation can be used, in hours (default 72, at most 30 days).' }),
    })
    .meta({ id: 'CreateInvitationRequest' }),
);

export const invitationSchema = z.lazy(() =>
  z
    .object({
      email: z.email(),
      projectId: z.string(),
      role: roleSchema,
      token: z
        .string()
        .meta({ description: 'Give it to the invitee: `POST /v1/auth/register` takes it as `invitation`.' }),
      expiresAt: timestampSchema,
    })
    .meta({ id: 'Invitation' }),
);
