import type { ConversationRole } from '../../db/schema/chat.js';

const RANK: Record<ConversationRole, number> = { MEMBER: 0, MODERATOR: 1, ADMIN: 2 };

export const atLeast = (role: ConversationRole, minimum: ConversationRole) => RANK[role] >= RANK[minimum];

/** A member's rights are those of their role, raised to the token's scope (live-stream hosts). */
export const effectiveRole = (memberRole: ConversationRole, tokenScope: ConversationRole): ConversationRole =>
  RANK[tokenScope] > RANK[memberRole] ? tokenScope : memberRole;

/**
 * What each conversation role may do, as Stream Chat users expect. Everyone reads, sends, reacts,
 * marks read, edits and deletes their own messages, and may leave. Moderators also delete anyone's
 * messages and remove MEMBERs. Admins also add members, change roles, remove anyone and update the
 * conversation. Nobody edits someone else's text. A server (API key) may do everything.
 */
export const CONVERSATION_RIGHTS = {
  deleteOthersMessages: 'MODERATOR',
  removeMembers: 'MODERATOR',
  addMembers: 'ADMIN',
  changeRoles: 'ADMIN',
  removeModerators: 'ADMIN',
  updateConversation: 'ADMIN',
} as const satisfies Record<string, ConversationRole>;

export type ConversationRight = keyof typeof CONVERSATION_RIGHTS;
