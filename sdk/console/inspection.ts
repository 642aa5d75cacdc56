import type { Transport } from '../transport.js';
import type {
  ChatConnectionList,
  ChatOverview,
  CreateLiveStreamInput,
  CreateRoomInput,
  CreateRtcTokenInput,
  EnvironmentInput,
  HostCredential,
  InspectedConversationPage,
  LiveStream,
  LiveStreamPage,
  LiveStreamParticipantPage,
  ParticipantList,
  PresenceList,
  ProjectAddHostInput,
  QueryOf,
  Room,
  RoomMedia,
  RoomPage,
  RtcToken,
  UpdateLiveStreamInput,
  ViewerCredential,
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

  get(projectId: string, roomId: string, options: EnvironmentInput = {}): Promise<Room> {
    return this.transport.call('getProjectRoom', {
      params: { id: projectId, roomId },
      query: { environment: options.environment },
    });
  }

  /** Disconnects its participants (close code 4410) and frees its name. */
  delete(projectId: string, roomId: string, options: EnvironmentInput = {}): Promise<void> {
    return this.transport.call('deleteProjectRoom', {
      params: { id: projectId, roomId },
      query: { environment: options.environment },
    });
  }

  /** Who is connected to the room's signaling socket now. */
  participants(projectId: string, roomId: string, options: EnvironmentInput = {}): Promise<ParticipantList> {
    return this.transport.call('listProjectRoomParticipants', {
      params: { id: projectId, roomId },
      query: { environment: options.environment },
    });
  }

  /**
   * Each participant's tracks as the server sees them now (packets, bytes, loss, bitrate), when media goes through
   * it (`serve --rtc-media sfu`); `mode: 'mesh'` with no participants when media goes peer to peer.
   */
  media(projectId: string, roomId: string, options: EnvironmentInput = {}): Promise<RoomMedia> {
    return this.transport.call('getProjectRoomMedia', {
      params: { id: projectId, roomId },
      query: { environment: options.environment },
    });
  }

  /** An RTC token for one identity in the room, minted with the session (audited): the playground and test call. */
  createRtcToken(
    projectId: string,
    roomId: string,
    input: CreateRtcTokenInput,
    options: EnvironmentInput = {},
  ): Promise<RtcToken> {
    return this.transport.call('createProjectRtcToken', {
      params: { id: projectId, roomId },
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

  /** Hosts and viewers the stream issued credentials to, by identity, with whether each is in the room now. */
  participants(
    projectId: string,
    streamId: string,
    query: QueryOf<'listProjectLiveStreamParticipants'> = {},
  ): Promise<LiveStreamParticipantPage> {
    return this.transport.call('listProjectLiveStreamParticipants', { params: { id: projectId, streamId }, query });
  }

  /** A host credential (RTC full publish, chat ADMIN for HOST or MODERATOR for CO_HOST): its tokens are shown once. */
  addHost(
    projectId: string,
    streamId: string,
    input: ProjectAddHostInput,
    options: EnvironmentInput = {},
  ): Promise<HostCredential> {
    return this.transport.call('addProjectLiveStreamHost', {
      params: { id: projectId, streamId },
      query: { environment: options.environment },
      body: input,
    });
  }

  removeHost(projectId: string, streamId: string, identity: string, options: EnvironmentInput = {}): Promise<void> {
    return this.transport.call('removeProjectLiveStreamHost', {
      params: { id: projectId, streamId, identity },
      query: { environment: options.environment },
    });
  }

  /** A viewer credential (no publish right, chat MEMBER); the body is `{identity}` only. */
  createViewerToken(
    projectId: string,
    streamId: string,
    input: { identity: string },
    options: EnvironmentInput = {},
  ): Promise<ViewerCredential> {
    return this.transport.call('createProjectViewerToken', {
      params: { id: projectId, streamId },
      query: { environment: options.environment },
      body: input,
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
