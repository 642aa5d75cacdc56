// A tiny chat app's backend, written as a Switchboard user writes one: it opens conversations between its users,
// posts messages on their behalf and hands each user a chat token for their ChatClient. Its test, beside it, runs it
// against a server from `switchboard/testing`.
import { ServerClient } from '../../../sdk/index.js';

export interface ChatAppConfig {
  /** Where Switchboard answers (SWITCHBOARD_URL in production). */
  switchboardUrl: string;
  /** The app's API key (SWITCHBOARD_API_KEY). */
  apiKey: string;
}

export function createChatApp(config: ChatAppConfig) {
  const switchboard = new ServerClient({ baseUrl: config.switchboardUrl, apiKey: config.apiKey });
  return {
    /** A conversation between the users given, created by the first. */
    async startConversation(name: string, userIds: string[]): Promise<string> {
      const members = userIds.map((userId) => ({ userId }));
      return (await switchboard.conversations.create({ name, members, createdBy: userIds[0] })).id;
    },

    /** Posts `text` from `userId`; resolves with the message's id. */
    async say(conversationId: string, userId: string, text: string): Promise<string> {
      return (await switchboard.messages.send(conversationId, { senderId: userId, text })).id;
    },

    /** A chat token, which the user's browser passes to its ChatClient. */
    async chatToken(userId: string): Promise<string> {
      return (await switchboard.chatTokens.create({ userId })).token;
    },
  };
}
