import type * as z from 'zod';
import { toIso, toIsoOrNull } from '../clock.js';
import type { RtcPermissions } from '../rtc/permissions.js';
import type { liveStreamParticipantSchema, liveStreamSchema } from './schemas.js';
import type { LiveStreamRow } from './service.js';

export const presentLiveStream = (s: LiveStreamRow): z.input<typeof liveStreamSchema> => ({
  id: s.id,
  title: s.title,
  status: s.status,
  environment: s.environment,
  roomId: s.roomId,
  conversationId: s.conversationId,
  createdAt: toIso(s.createdAt),
  startedAt: toIsoOrNull(s.startedAt),
  endedAt: toIsoOrNull(s.endedAt),
});

/** A page of streams, as both list routes (key and dashboard) answer it. */
export const presentLiveStreamPage = (page: { rows: LiveStreamRow[]; nextCursor: string | null }) => ({
  data: page.rows.map(presentLiveStream),
  nextCursor: page.nextCursor,
});

export const presentParticipant = (p: {
  identity: string;
  kind: 'HOST' | 'CO_HOST' | 'VIEWER';
  joinedAt: number;
  leftAt: number | null;
  connectedAt: number | null;
}): z.input<typeof liveStreamParticipantSchema> => ({
  identity: p.identity,
  role: p.kind,
  issuedAt: toIso(p.joinedAt),
  leftAt: toIsoOrNull(p.leftAt),
  connected: p.connectedAt !== null,
  connectedAt: toIsoOrNull(p.connectedAt),
});

interface Minted {
  stream: LiveStreamRow;
  identity: string;
  rtc: { token: string; expiresAt: number; permissions: RtcPermissions };
  chat: { token: string; expiresAt: number; scope: 'MEMBER' | 'MODERATOR' | 'ADMIN' };
}

/** The credential bundle of spec 2.7: an ordinary RTC token and an ordinary chat token. */
export const presentCredential = (c: Minted) => ({
  liveStreamId: c.stream.id,
  identity: c.identity,
  roomId: c.stream.roomId,
  conversationId: c.stream.conversationId,
  rtc: { token: c.rtc.token, expiresAt: toIso(c.rtc.expiresAt), permissions: c.rtc.permissions },
  chat: { token: c.chat.token, expiresAt: toIso(c.chat.expiresAt), scope: c.chat.scope },
});
