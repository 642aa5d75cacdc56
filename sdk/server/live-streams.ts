import { paginate } from '../paginate.js';
import type { Transport } from '../transport.js';
import type {
  AddHostInput,
  CreateLiveStreamInput,
  HostCredential,
  LiveStream,
  LiveStreamPage,
  PageQuery,
  RemoveHostInput,
  UpdateLiveStreamInput,
  ViewerCredential,
} from '../types.js';

/** A stream's hosts: each gets full publish rights and a chat ADMIN or MODERATOR token. */
export class HostsResource {
  constructor(private readonly transport: Transport) {}

  add(streamId: string, input: AddHostInput): Promise<HostCredential> {
    return this.transport.call('addLiveStreamHost', { params: { id: streamId }, body: input });
  }

  remove(streamId: string, identity: string, options: RemoveHostInput = {}): Promise<void> {
    return this.transport.call('removeLiveStreamHost', {
      params: { id: streamId, identity },
      query: { removedBy: options.removedBy },
    });
  }
}

/** Strict viewer credentials: subscribe only, chat MEMBER. */
export class ViewerTokensResource {
  constructor(private readonly transport: Transport) {}

  create(streamId: string, input: { identity: string }): Promise<ViewerCredential> {
    return this.transport.call('createViewerToken', { params: { id: streamId }, body: input });
  }
}

/** Live streams of the API key's environment: CREATED → LIVE → ENDED. */
export class LiveStreamsResource {
  readonly hosts: HostsResource;
  readonly viewerTokens: ViewerTokensResource;

  constructor(private readonly transport: Transport) {
    this.hosts = new HostsResource(transport);
    this.viewerTokens = new ViewerTokensResource(transport);
  }

  create(input: CreateLiveStreamInput): Promise<LiveStream> {
    return this.transport.call('createLiveStream', { body: input });
  }

  list(query: PageQuery = {}): Promise<LiveStreamPage> {
    return this.transport.call('listLiveStreams', { query });
  }

  all(query: Omit<PageQuery, 'cursor'> = {}): AsyncGenerator<LiveStream, void, undefined> {
    return paginate((cursor) => this.list({ ...query, cursor }));
  }

  get(streamId: string): Promise<LiveStream> {
    return this.transport.call('getLiveStream', { params: { id: streamId } });
  }

  update(streamId: string, input: UpdateLiveStreamInput): Promise<LiveStream> {
    return this.transport.call('updateLiveStream', { params: { id: streamId }, body: input });
  }

  start(streamId: string): Promise<LiveStream> {
    return this.transport.call('startLiveStream', { params: { id: streamId } });
  }

  end(streamId: string): Promise<LiveStream> {
    return this.transport.call('endLiveStream', { params: { id: streamId } });
  }

  /** The identity leaves: its credentials stop working. */
  leave(streamId: string, input: { identity: string }): Promise<void> {
    return this.transport.call('leaveLiveStream', { params: { id: streamId }, body: input });
  }
}
