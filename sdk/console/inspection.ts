import { path, type Transport } from '../transport.js';
import type {
  ChatConnectionList,
  ChatOverview,
  CreateLiveStreamInput,
  CreateRoomInput,
  CreateRtcTokenInput,
  Environment,
  EnvironmentInput,
  HostCredential,
  InspectedConversationPage,
  LiveStream,
  LiveStreamPage,
  LiveStreamParticipantPage,
  LiveStreamParticipantQuery,
  PageQuery,
  ParticipantList,
  PresenceList,
  ProjectAddHostInput,
  Room,
  RoomPage,
  RtcToken,
  UpdateLiveStreamInput,
  ViewerCredential,
} from '../types.js';

type EnvPage = PageQuery & { environment?: Environment };

/** Rooms of one environment of a project (development unless told otherwise). */
export class ProjectRoomsResource {
  constructor(private readonly transport: Transport) {}

  list(projectId: string, query: EnvPage = {}): Promise<RoomPage> {
    return this.transport.request({ method: 'GET', path: path`/v1/projects/${projectId}/rooms`, query });
  }

  create(projectId: string, input: CreateRoomInput, options: EnvironmentInput = {}): Promise<Room> {
    return this.transport.request({
      method: 'POST',
      path: path`/v1/projects/${projectId}/rooms`,
      query: { environment: options.environment },
      body: input,
    });
  }

  get(projectId: string, roomId: string, options: EnvironmentInput = {}): Promise<Room> {
    return this.transport.request({
      method: 'GET',
      path: path`/v1/projects/${projectId}/rooms/${roomId}`,
      query: { environment: options.environment },
    });
  }

  /** Disconnects its participants (close code 4410) and frees its name. */
  delete(projectId: string, roomId: string, options: EnvironmentInput = {}): Promise<void> {
    return this.transport.request({
      method: 'DELETE',
      path: path`/v1/projects/${projectId}/rooms/${roomId}`,
      query: { environment: options.environment },
    });
  }

  /** Who is connected to the room's signaling socket now. */
  participants(projectId: string, roomId: string, options: EnvironmentInput = {}): Promise<ParticipantList> {
    return this.transport.request({
      method: 'GET',
      path: path`/v1/projects/${projectId}/rooms/${roomId}/participants`,
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
    return this.transport.request({
      method: 'POST',
      path: path`/v1/projects/${projectId}/rooms/${roomId}/rtc-tokens`,
      query: { environment: options.environment },
      body: input,
    });
  }
}

/** Live streams of one environment of a project. */
export class ProjectLiveStreamsResource {
  constructor(private readonly transport: Transport) {}

  list(projectId: string, query: EnvPage = {}): Promise<LiveStreamPage> {
    return this.transport.request({ method: 'GET', path: path`/v1/projects/${projectId}/live-streams`, query });
  }

  create(projectId: string, input: CreateLiveStreamInput, options: EnvironmentInput = {}): Promise<LiveStream> {
    return this.transport.request({
      method: 'POST',
      path: path`/v1/projects/${projectId}/live-streams`,
      query: { environment: options.environment },
      body: input,
    });
  }

  get(projectId: string, streamId: string, options: EnvironmentInput = {}): Promise<LiveStream> {
    return this.transport.request({
      method: 'GET',
      path: path`/v1/projects/${projectId}/live-streams/${streamId}`,
      query: { environment: options.environment },
    });
  }

  update(
    projectId: string,
    streamId: string,
    input: UpdateLiveStreamInput,
    options: EnvironmentInput = {},
  ): Promise<LiveStream> {
    return this.transport.request({
      method: 'PATCH',
      path: path`/v1/projects/${projectId}/live-streams/${streamId}`,
      query: { environment: options.environment },
      body: input,
    });
  }

  end(projectId: string, streamId: string, options: EnvironmentInput = {}): Promise<LiveStream> {
    return this.transport.request({
      method: 'POST',
      path: path`/v1/projects/${projectId}/live-streams/${streamId}/end`,
      query: { environment: options.environment },
    });
  }

  /** Hosts and viewers the stream issued credentials to, by identity, with whether each is in the room now. */
  participants(
    projectId: string,
    streamId: string,
    query: LiveStreamParticipantQuery & { environment?: Environment } = {},
  ): Promise<LiveStreamParticipantPage> {
    return this.transport.request({
      method: 'GET',
      path: path`/v1/projects/${projectId}/live-streams/${streamId}/participants`,
      query,
    });
  }

  /** A host credential (RTC full publish, chat ADMIN for HOST or MODERATOR for CO_HOST): its tokens are shown once. */
  addHost(
    projectId: string,
    streamId: string,
    input: ProjectAddHostInput,
    options: EnvironmentInput = {},
  ): Promise<HostCredential> {
    return this.transport.request({
      method: 'POST',
      path: path`/v1/projects/${projectId}/live-streams/${streamId}/hosts`,
      query: { environment: options.environment },
      body: input,
    });
  }

  removeHost(projectId: string, streamId: string, identity: string, options: EnvironmentInput = {}): Promise<void> {
    return this.transport.request({
      method: 'DELETE',
      path: path`/v1/projects/${projectId}/live-streams/${streamId}/hosts/${identity}`,
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
    return this.transport.request({
      method: 'POST',
      path: path`/v1/projects/${projectId}/live-streams/${streamId}/viewer-tokens`,
      query: { environment: options.environment },
      body: input,
    });
  }
}

/** The dashboard's view of chat: counts and metadata, never message content. */
export class ChatInspectionResource {
  constructor(private readonly transport: Transport) {}

  overview(projectId: string, options: EnvironmentInput = {}): Promise<ChatOverview> {
    return this.transport.request({
      method: 'GET',
      path: path`/v1/projects/${projectId}/chat/overview`,
      query: { environment: options.environment },
    });
  }

  conversations(projectId: string, query: EnvPage = {}): Promise<InspectedConversationPage> {
    return this.transport.request({ method: 'GET', path: path`/v1/projects/${projectId}/chat/conversations`, query });
  }

  connections(projectId: string, options: EnvironmentInput = {}): Promise<ChatConnectionList> {
    return this.transport.request({
      method: 'GET',
      path: path`/v1/projects/${projectId}/chat/connections`,
      query: { environment: options.environment },
    });
  }

  presence(projectId: string, conversationId: string, options: EnvironmentInput = {}): Promise<PresenceList> {
    return this.transport.request({
      method: 'GET',
      path: path`/v1/projects/${projectId}/chat/conversations/${conversationId}/presence`,
      query: { environment: options.environment },
    });
  }
}
