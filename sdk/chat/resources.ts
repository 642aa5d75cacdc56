import { paginate } from '../paginate.js';
import type { Transport } from '../transport.js';
import type {
  ActAsInput,
  AddConversationMemberInput,
  Attachment,
  AttachmentDownloadUrl,
  Conversation,
  ConversationListQuery,
  ConversationMember,
  ConversationMemberList,
  ConversationPage,
  CreateAttachmentInput,
  CreateConversationInput,
  CreatedAttachment,
  EditMessageInput,
  Message,
  MessageListQuery,
  MessagePage,
  PresenceList,
  ReactionInput,
  ReadReceiptList,
  ReadState,
  SendMessageInput,
  Thread,
  ThreadQuery,
  TypingList,
  UpdateConversationInput,
} from '../types.js';

/*
 * The chat REST API, shared by `ServerClient` (API key) and `ChatClient` (chat token). The
 * `userId`/`senderId`/`uploaderId` fields name the end user to act for with an API key; with a chat
 * token the token's user acts and the server refuses them.
 */

export class ConversationsResource {
  constructor(private readonly transport: Transport) {}

  create(input: CreateConversationInput): Promise<Conversation> {
    return this.transport.call('createConversation', { body: input });
  }

  /** One page; with an API key, `userId` keeps the conversations that user belongs to. */
  list(query: ConversationListQuery = {}): Promise<ConversationPage> {
    return this.transport.call('listConversations', { query });
  }

  all(query: Omit<ConversationListQuery, 'cursor'> = {}): AsyncGenerator<Conversation, void, undefined> {
    return paginate((cursor) => this.list({ ...query, cursor }));
  }

  get(conversationId: string): Promise<Conversation> {
    return this.transport.call('getConversation', { params: { room: conversationId } });
  }

  update(conversationId: string, input: UpdateConversationInput): Promise<Conversation> {
    return this.transport.call('updateConversation', { params: { room: conversationId }, body: input });
  }

  /** Which members are connected to the realtime socket now. */
  presence(conversationId: string): Promise<PresenceList> {
    return this.transport.call('getPresence', { params: { room: conversationId } });
  }

  /** Who is typing now. */
  typing(conversationId: string): Promise<TypingList> {
    return this.transport.call('getTyping', { params: { room: conversationId } });
  }

  /** The acting user's last read message and unread count. */
  readState(conversationId: string, options: ActAsInput = {}): Promise<ReadState> {
    return this.transport.call('getReadState', { params: { room: conversationId }, query: { userId: options.userId } });
  }

  /** Every member's last read message. */
  readReceipts(conversationId: string): Promise<ReadReceiptList> {
    return this.transport.call('listReadReceipts', { params: { room: conversationId } });
  }
}

export class ConversationMembersResource {
  constructor(private readonly transport: Transport) {}

  add(conversationId: string, input: AddConversationMemberInput): Promise<ConversationMember> {
    return this.transport.call('addConversationMember', { params: { room: conversationId }, body: input });
  }

  list(conversationId: string): Promise<ConversationMemberList> {
    return this.transport.call('listConversationMembers', { params: { room: conversationId } });
  }

  remove(conversationId: string, userId: string): Promise<void> {
    return this.transport.call('removeConversationMember', { params: { room: conversationId, userId } });
  }
}

export class MessagesResource {
  constructor(private readonly transport: Transport) {}

  send(conversationId: string, input: SendMessageInput): Promise<Message> {
    return this.transport.call('sendMessage', { params: { room: conversationId }, body: input });
  }

  /**
   * Top-level messages, oldest first within a page. Without a cursor: the newest `limit`; `before`
   * (a `prevCursor`) pages back, `after` (a `nextCursor`, or a realtime event's `message.cursor`) forward.
   */
  list(conversationId: string, query: MessageListQuery = {}): Promise<MessagePage> {
    return this.transport.call('listMessages', { params: { room: conversationId }, query });
  }

  get(messageId: string, options: ActAsInput = {}): Promise<Message> {
    return this.transport.call('getMessage', { params: { messageId }, query: { userId: options.userId } });
  }

  /** A thread's first message and its replies, oldest first, paged with `after`. */
  thread(messageId: string, query: ThreadQuery = {}): Promise<Thread> {
    return this.transport.call('getThread', { params: { messageId }, query });
  }

  edit(messageId: string, input: EditMessageInput): Promise<Message> {
    return this.transport.call('editMessage', { params: { messageId }, body: input });
  }

  delete(messageId: string, options: ActAsInput = {}): Promise<void> {
    return this.transport.call('deleteMessage', { params: { messageId }, query: { userId: options.userId } });
  }

  /** Marks this message, and everything before it, read for the acting user. */
  markRead(messageId: string, options: ActAsInput = {}): Promise<ReadState> {
    return this.transport.call('markRead', {
      params: { messageId },
      body: options.userId === undefined ? {} : { userId: options.userId },
    });
  }
}

export class ReactionsResource {
  constructor(private readonly transport: Transport) {}

  /** Answers the message with its new counts. */
  add(messageId: string, input: ReactionInput): Promise<Message> {
    return this.transport.call('addReaction', { params: { messageId }, body: input });
  }

  remove(messageId: string, emoji: string, options: ActAsInput = {}): Promise<void> {
    return this.transport.call('removeReaction', { params: { messageId, emoji }, query: { userId: options.userId } });
  }
}

export interface UploadInput {
  filename: string;
  /** A media type without parameters, e.g. `image/png`. */
  contentType: string;
  data: Uint8Array | Blob;
  /** API key only: the end user uploading. */
  uploaderId?: string;
}

export class AttachmentsResource {
  constructor(private readonly transport: Transport) {}

  /** Step 1: the attachment record and a signed `uploadUrl` to PUT the bytes to. */
  create(conversationId: string, input: CreateAttachmentInput): Promise<CreatedAttachment> {
    return this.transport.call('createAttachment', { params: { room: conversationId }, body: input });
  }

  /** Step 3, once the bytes are uploaded: then it may be sent with a message (`attachmentIds`). */
  complete(attachmentId: string): Promise<Attachment> {
    return this.transport.call('completeAttachment', { params: { attachmentId } });
  }

  /** A signed, expiring URL that GETs the bytes with no other credential. */
  downloadUrl(attachmentId: string): Promise<AttachmentDownloadUrl> {
    return this.transport.call('getAttachmentDownloadUrl', { params: { attachmentId } });
  }

  /** create → PUT the bytes → complete, in one call. Answers the COMPLETED attachment. */
  async upload(conversationId: string, input: UploadInput): Promise<Attachment> {
    const size = input.data instanceof Uint8Array ? input.data.byteLength : input.data.size;
    const created = await this.create(conversationId, {
      filename: input.filename,
      contentType: input.contentType,
      size,
      ...(input.uploaderId === undefined ? {} : { uploaderId: input.uploaderId }),
    });
    await this.transport.putBytes<Attachment>(created.uploadUrl, input.contentType, input.data);
    return this.complete(created.id);
  }
}

/** Every chat resource over one transport (the clients that have them extend this). */
export class ChatResources {
  readonly conversations: ConversationsResource;
  readonly members: ConversationMembersResource;
  readonly messages: MessagesResource;
  readonly reactions: ReactionsResource;
  readonly attachments: AttachmentsResource;

  constructor(protected readonly transport: Transport) {
    this.conversations = new ConversationsResource(transport);
    this.members = new ConversationMembersResource(transport);
    this.messages = new MessagesResource(transport);
    this.reactions = new ReactionsResource(transport);
    this.attachments = new AttachmentsResource(transport);
  }
}
