import { AuditResource } from './console/audit.js';
import { AuthResource } from './console/auth.js';
import { EnvironmentsResource } from './console/environments.js';
import { FaultsResource } from './console/faults.js';
import { ChatInspectionResource, ProjectLiveStreamsResource, ProjectRoomsResource } from './console/inspection.js';
import { KeysResource } from './console/keys.js';
import { MembersResource } from './console/members.js';
import { ObservabilityResource } from './console/observability.js';
import { ProjectsResource } from './console/projects.js';
import { RecordingsResource } from './console/recordings.js';
import { SnapshotsResource } from './console/snapshots.js';
import { WebhooksResource } from './console/webhooks.js';
import { type ClientOptions, Transport } from './transport.js';
import type { ServerNodeList } from './types.js';

export interface ConsoleClientOptions extends ClientOptions {
  /** A dashboard session token from `auth.register` or `auth.login` (which also set it). */
  token?: string;
}

/**
 * The control plane, as the dashboard and the command-line tool use it: signed in with a dashboard
 * session, never with an API key. Project-scoped calls take the project id first.
 */
export class ConsoleClient {
  private readonly transport: Transport;
  readonly auth: AuthResource;
  readonly projects: ProjectsResource;
  readonly environments: EnvironmentsResource;
  readonly faults: FaultsResource;
  readonly snapshots: SnapshotsResource;
  readonly recordings: RecordingsResource;
  readonly members: MembersResource;
  readonly keys: KeysResource;
  readonly audit: AuditResource;
  readonly webhooks: WebhooksResource;
  readonly rooms: ProjectRoomsResource;
  readonly liveStreams: ProjectLiveStreamsResource;
  readonly chat: ChatInspectionResource;
  readonly observability: ObservabilityResource;

  constructor(options: ConsoleClientOptions = {}) {
    this.transport = new Transport(options, options.token);
    this.auth = new AuthResource(this.transport);
    this.projects = new ProjectsResource(this.transport);
    this.environments = new EnvironmentsResource(this.transport);
    this.faults = new FaultsResource(this.transport);
    this.snapshots = new SnapshotsResource(this.transport);
    this.recordings = new RecordingsResource(this.transport);
    this.members = new MembersResource(this.transport);
    this.keys = new KeysResource(this.transport);
    this.audit = new AuditResource(this.transport);
    this.webhooks = new WebhooksResource(this.transport);
    this.rooms = new ProjectRoomsResource(this.transport);
    this.liveStreams = new ProjectLiveStreamsResource(this.transport);
    this.chat = new ChatInspectionResource(this.transport);
    this.observability = new ObservabilityResource(this.transport);
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** The session token in use, if signed in. */
  get token(): string | undefined {
    return this.transport.credential;
  }

  /**
   * The servers running on the database and reachable through Redis, oldest first (one, without Redis), with where
   * each listens: for an owner of any project (403 otherwise). `AdminClient.nodes` lists the same with the admin token.
   */
  serverNodes(): Promise<ServerNodeList> {
    return this.transport.call('listServerNodes');
  }
}
