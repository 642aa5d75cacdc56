import type * as z from 'zod';
import { toIso } from '../clock.js';
import { capabilitiesOf } from '../roles/capabilities.js';
import type { Invitation } from './invitations.js';
import type { invitationSchema, memberSchema } from './schemas.js';
import type { MemberRow } from './service.js';

export const presentMember = (member: MemberRow): z.input<typeof memberSchema> => ({
  userId: member.userId,
  email: member.email,
  name: member.name,
  role: member.role,
  capabilities: capabilitiesOf(member.role),
  joinedAt: toIso(member.createdAt),
});

export const presentInvitation = (invitation: Invitation): z.input<typeof invitationSchema> => ({
  email: invitation.email,
  projectId: invitation.projectId,
  role: invitation.role,
  token: invitation.token,
  expiresAt: toIso(invitation.expiresAt),
});
