import type { Transport } from '../transport.js';
import type {
  ChatConnectionList,
  ChatOverview,
  CreateLiveStreamInput,
  CreateRoomInput,
  EnvironmentInput,
  InspectedConversationPage,
  LiveStream,
  LiveStreamPage,
  PresenceList,
  QueryOf,
  Room,
  RoomPage,
  UpdateLiveStreamInput,
} from '../types.js';

/** Rooms of one environment of a project (development unless told otherwise). */
export class ProjectRoomsResource {
  constructor(private readonly transport: Transport) {}

  list(projectId: string, query: QueryOf<'listProjectRooms'> = {}): Promise<RoomPage> {
    return this.transport.call('listProjectRooms', { params: { id: projectId }, query });
  }

  create(projectId: string, input: CreateRoomInput, options: EnvironmentInput = {}): Promise<Room> {
    return this.transport.call('createProjectRoom', {
      params: { id: projectId },
      query: { environment: options.environment },
      body: input,
    });
  }
}

/** Live streams of one environment of a project. */
export class ProjectLiveStreamsResource {
  constructor(private readonly transport: Transport) {}

  list(projectId: string, query: QueryOf<'listProjectLiveStreams'> = {}): Promise<LiveStreamPage> {
    return this.transport.call('listProjectLiveStreams', { params: { id: projectId }, query });
  }

  create(projectId: string, input: CreateLiveStreamInput, options: EnvironmentInput = {}): Promise<LiveStream> {
    return this.transport.call('createProjectLiveStream', {
      params: { id: projectId },
      query: { environment: options.environment },
      body: input,
    });
  }

  get(projectId: string, streamId: string, options: EnvironmentInput = {}): Promise<LiveStream> {
    return this.transport.call('getProjectLiveStream', {
      params: { id: projectId, streamId },
      query: { environment: options.environment },
    });
  }

  update(
    projectId: string,
    streamId: string,
    input: UpdateLiveStreamInput,
    options: EnvironmentInput = {},
  ): Promise<LiveStream> {
    return this.transport.call('updateProjectLiveStream', {
      params: { id: projectId, streamId },
      query: { environment: options.environment },
      body: input,
    });
  }

  end(projectId: string, streamId: string, options: EnvironmentInput = {}): Promise<LiveStream> {
    return this.transport.call('endProjectLiveStream', {
      params: { id: projectId, streamId },
      query: { environment: options.environment },
    });
  }
}

/** The dashboard's view of chat: counts and metadata, never message content. */
export class ChatInspectionResource {
  constructor(private readonly transport: Transport) {}

  overview(projectId: string, options: EnvironmentInput = {}): Promise<ChatOverview> {
    return this.transport.call('getChatOverview', {
      params: { id: projectId },
      query: { environment: options.environment },
    });
  }

  conversations(projectId: string, query: QueryOf<'inspectConversations'> = {}): Promise<InspectedConversationPage> {
    return this.transport.call('inspectConversations', { params: { id: projectId }, query });
  }

  connections(projectId: string, options: EnvironmentInput = {}): Promise<ChatConnectionList> {
    return this.transport.call('inspectChatConnections', {
      params: { id: projectId },
      query: { environment: options.environment },
    });
  }

  presence(projectId: string, conversationId: string, options: EnvironmentInput = {}): Promise<PresenceList> {
    return this.transport.call('inspectPresence', {
      params: { id: projectId, conversationId },
      query: { environment: options.environment },
    });
  }
}
