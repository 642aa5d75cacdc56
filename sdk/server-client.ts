import { ChatResources } from './chat/resources.js';
import { LiveStreamsResource } from './server/live-streams.js';
import { RoomsResource } from './server/rooms.js';
import { type ClientOptions, path, Transport } from './transport.js';
import type { ChatToken, CreateChatTokenInput, KeyWhoami } from './types.js';

export interface ServerClientOptions extends ClientOptions {
  /** A project API key, `sb_<env>_<public>.<secret>`. Keep production keys on your server. */
  apiKey: string;
}

/** Chat tokens for end users: what your backend hands to a `ChatClient`. */
export class ChatTokensResource {
  constructor(private readonly transport: Transport) {}

  create(input: CreateChatTokenInput): Promise<ChatToken> {
    return this.transport.request({ method: 'POST', path: path`/v1/chat/tokens`, body: input });
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
  whoami(): Promise<KeyWhoami> {
    return this.transport.request({ method: 'GET', path: path`/v1/whoami` });
  }
}
