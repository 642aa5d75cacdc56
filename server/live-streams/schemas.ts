import * as z from 'zod';
import { HOST_ROLES, LIVE_STREAM_STATUSES, PARTICIPANT_KINDS } from '../../db/schema/live-streams.js';
import { environmentSchema } from '../environments.js';
import { participantPermissionsSchema } from '../rooms/schemas.js';
import { cursorSchema, limitSchema } from '../shared/pagination.js';
import { timestampSchema } from '../shared/schemas.js';

const title = z.lazy(() => z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'));
const identity = z.lazy(() => z.string().trim().min(1).max(128));

export const createLiveStreamBody = z.lazy(() => z.strictObject({ title }).meta({ id: 'CreateLiveStreamRequest' }));
export const updateLiveStreamBody = z.lazy(() =>
  z.strictObject({ title: title.optional() }).meta({ id: 'UpdateLiveStreamRequest' }),
);

export const addHostBody = z.lazy(() =>
  z
    .strictObject({
      identity,
      role: z.enum(HOST_ROLES),
      invitedBy: identity.optional().meta({
        description: 'The host inviting, when your server knows who asks: then only a HOST may invite.',
      }),
    })
    .meta({ id: 'AddHostRequest' }),
);

/** From the dashboard a member acts for the project: there is no acting host to name, so no `invitedBy`. */
export const dashboardAddHostBody = z.lazy(() =>
  addHostBody.unwrap().omit({ invitedBy: true }).meta({ id: 'DashboardAddHostRequest' }),
);

export const removeHostQuery = z.lazy(() =>
  z.strictObject({
    removedBy: identity
      .optional()
      .meta({ description: 'The host removing: then only a HOST may remove another host.' }),
  }),
);

/** Exactly `{identity}`: a viewer has no role to choose, and anything else is refused (spec 4.6). */
export const viewerTokenBody = z.lazy(() => z.strictObject({ identity }).meta({ id: 'ViewerTokenRequest' }));
export const leaveBody = z.lazy(() => z.strictObject({ identity }).meta({ id: 'LeaveLiveStreamRequest' }));

export const liveStreamSchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ example: 'ls_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      title: z.string(),
      status: z
        .enum(LIVE_STREAM_STATUSES)
        .meta({ description: 'CREATED → LIVE → ENDED (a CREATED stream may also end).' }),
      environment: environmentSchema,
      roomId: z.string(),
      conversationId: z.string(),
      createdAt: timestampSchema,
      startedAt: timestampSchema.nullable(),
      endedAt: timestampSchema.nullable(),
    })
    .meta({ id: 'LiveStream' }),
);

export const participantsQuery = z.lazy(() =>
  z.strictObject({
    kind: z
      .enum(['host', 'viewer'], { error: 'must be host or viewer' })
      .optional()
      .meta({ description: '`host`: HOST and CO_HOST only; `viewer`: viewers only. Both when absent.' }),
    limit: limitSchema(),
    cursor: cursorSchema(),
  }),
);

export const liveStreamParticipantSchema = z.lazy(() =>
  z
    .object({
      identity: z.string(),
      role: z.enum(PARTICIPANT_KINDS),
      issuedAt: timestampSchema.meta({ description: 'When their latest credential was issued.' }),
      leftAt: timestampSchema
        .nullable()
        .meta({ description: 'When they were removed as a host or recorded as having left; null while in.' }),
      connected: z.boolean().meta({ description: 'In the stream’s room (signaling) now.' }),
      connectedAt: timestampSchema.nullable().meta({ description: 'When the open room connection joined.' }),
    })
    .meta({
      id: 'LiveStreamParticipant',
      description: 'Someone the stream issued a credential to: a host, a co-host or a viewer.',
    }),
);

const rtcPart = z.lazy(() =>
  z.object({ token: z.string(), expiresAt: timestampSchema, permissions: participantPermissionsSchema }),
);
const chatPart = z.lazy(() =>
  z.object({
    token: z.string(),
    expiresAt: timestampSchema,
    scope: z.enum(['MEMBER', 'MODERATOR', 'ADMIN']),
  }),
);

export const hostCredentialSchema = z.lazy(() =>
  z
    .object({
      liveStreamId: z.string(),
      identity: z.string(),
      role: z.enum(HOST_ROLES),
      roomId: z.string(),
      conversationId: z.string(),
      rtc: rtcPart,
      chat: chatPart,
    })
    .meta({ id: 'HostCredential' }),
);

export const viewerCredentialSchema = z.lazy(() =>
  z
    .object({
      liveStreamId: z.string(),
      identity: z.string(),
      roomId: z.string(),
      conversationId: z.string(),
      rtc: rtcPart,
      chat: chatPart,
    })
    .meta({ id: 'ViewerCredential' }),
);
