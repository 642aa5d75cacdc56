import { ChatResources } from './chat/resources.js';
import { LiveStreamsResource } from './server/live-streams.js';
import { RoomsResource } from './server/rooms.js';
import { type ClientOptions, Transport } from './transport.js';
import type { ChatToken, CreateChatTokenInput, KeyWhoami } from './types.js';

export interface ServerClientOptions extends ClientOptions {
  /** A project API key, `sb_<env>_<public>.<secret>`. Keep production keys on your server. */
  apiKey: string;
}

/** Chat tokens for end users: what your backend hands to a `ChatClient`. */
export class ChatTokensResource {
  constructor(private readonly transport: Transport) {}

  create(input: CreateChatTokenInput): Promise<ChatToken> {
    return this.transport.call('createChatToken', { body: input });
  }
}

/**
 * The runtime API, for your backend: signed with a project API key, which brings its environment.
 * Chat calls act for the end user named by `userId`/`senderId`/`uploaderId` where the API allows.
 */
export class ServerClient extends ChatResources {
  readonly rooms: RoomsResource;
  readonly chatTokens: ChatTokensResource;
  readonly liveStreams: LiveStreamsResource;

  constructor(options: ServerClientOptions) {
    super(new Transport(options, options.apiKey));
    this.rooms = new RoomsResource(this.transport);
    this.chatTokens = new ChatTokensResource(this.transport);
    this.liveStreams = new LiveStreamsResource(this.transport);
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** The key's id, project and environment (from the server's record, whatever the key text says). */
  async whoami(): Promise<KeyWhoami> {
    // This client holds an API key, which the route answers with the key form.
    return (await this.transport.call('whoami')) as KeyWhoami;
  }
}
