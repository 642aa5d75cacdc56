import * as z from 'zod';
import { participantPermissionsSchema } from '../rooms/schemas.js';
import { timestampSchema } from '../shared/schemas.js';

export const RTC_TOKEN_DEFAULT_TTL_SECONDS = 6 * 3600;
export const RTC_TOKEN_MAX_TTL_SECONDS = 7 * 24 * 3600;

const flag = (description: string) => z.boolean().optional().meta({ description });

export const createRtcTokenBody = z.lazy(() =>
  z
    .strictObject({
      identity: z
        .string()
        .trim()
        .min(1, 'must not be empty')
        .max(128, 'must be at most 128 characters')
        .meta({ description: 'Who joins: unique in the room (a second connection replaces the first).' }),
      name: z
        .string()
        .trim()
        .min(1)
        .max(128)
        .optional()
        .meta({ description: 'Display name shown to other participants.' }),
      publish: flag('May publish media at all (default true). False turns audio and video off too.'),
      publishAudio: flag('May publish audio (default: the value of `publish`).'),
      publishVideo: flag('May publish video (default: the value of `publish`).'),
      publishData: flag('May send data messages and offer data channels (default true).'),
      subscribe: flag('May receive media from others (default true).'),
      ttlSeconds: z
        .number()
        .int()
        .min(60)
        .max(RTC_TOKEN_MAX_TTL_SECONDS)
        .optional()
        .meta({ description: `Lifetime, 60 s to 7 days (default ${RTC_TOKEN_DEFAULT_TTL_SECONDS / 3600} hours).` }),
    })
    .superRefine((body, ctx) => {
      for (const kind of ['publishAudio', 'publishVideo'] as const) {
        if (body.publish === false && body[kind] === true) {
          ctx.addIssue({ code: 'custom', path: [kind], message: 'cannot be true when publish is false' });
        }
      }
    })
    .meta({ id: 'CreateRtcTokenRequest' }),
);

export const rtcTokenSchema = z.lazy(() =>
  z
    .object({
      token: z.string().meta({ description: 'Connect to the signaling socket with `/v1/rtc?access_token=<token>`.' }),
      expiresAt: timestampSchema,
      roomId: z.string(),
      identity: z.string(),
      permissions: participantPermissionsSchema,
    })
    .meta({ id: 'RtcToken' }),
);
