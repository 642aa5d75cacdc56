import type { ConversationRole } from '../../db/schema/chat.js';
import type { EnvironmentScope } from '../../db/scope.js';
import { validationFailed } from '../errors.js';
import type { ChatAuth, KeyAuth } from '../http/route.js';

/**
 * Who acts in chat. With a chat token: that end user, always (the sender cannot be chosen). With an
 * API key: the application's server, acting for the user the request names, with full rights.
 */
export type ChatCaller =
  | { kind: 'server'; scope: EnvironmentScope; userId: string | undefined }
  | { kind: 'user'; scope: EnvironmentScope; userId: string; tokenScope: ConversationRole };

/**
 * `field` is the body or query field in which a server names the user (`senderId`, `userId`). A
 * chat token that sends it is refused rather than ignored: a forged sender must fail loudly.
 */
export function chatCaller(auth: KeyAuth | ChatAuth, named: string | undefined, field: string): ChatCaller {
  if (auth.kind === 'key') return { kind: 'server', scope: auth.scope, userId: named };
  if (named !== undefined) {
    throw validationFailed(`${field}: not allowed with a chat token; the user is the token's (${auth.userId}).`);
  }
  return { kind: 'user', scope: auth.scope, userId: auth.userId, tokenScope: auth.chatScope };
}

/** The acting user id, required: a server must name one where the action is a user's. */
export function actingUserId(caller: ChatCaller, field: string): string {
  if (caller.userId === undefined) throw validationFailed(`${field}: required with an API key (the user to act for).`);
  return caller.userId;
}
