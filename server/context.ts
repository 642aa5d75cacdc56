import type { Logger } from 'pino';
import type { Store } from '../db/store.js';
import type { PasswordHashing } from './auth/passwords.js';
import type { AttachmentStorage } from './chat/attachments/storage.js';
import type { Clock } from './clock.js';
import type { Cluster } from './cluster/cluster.js';
import type { Snapshot } from './data-archive/snapshot.js';
import type { EventBus } from './events/bus.js';
import type { IdGenerator } from './ids.js';
import type { KeyRing } from './key-ring.js';
import type { MetricSink } from './metrics/sink.js';
import type { SecuritySettings } from './security/settings.js';
import type { Services } from './services.js';
import type { Tracing } from './tracing/tracing.js';

/** `local` allows loopback and private webhook targets; `production` refuses them. */
export type DeploymentMode = 'local' | 'production';

/** What the server is made of; everything below the config layer receives it, nothing reads globals. */
export interface Infrastructure {
  /** The database (SQLite or PostgreSQL): `store.db` to read, `store.transaction` to write. */
  store: Store;
  /** The server's token signing keys and the webhook-secrets key (server/key-ring.ts). */
  keys: KeyRing;
  /** A consistent copy of everything the server holds, for a backup, taken while it keeps serving. */
  snapshot(): Promise<Snapshot>;
  /** Where attachment bytes are kept, with the store: files in the data folder, or rows of the database. */
  attachmentStorage: AttachmentStorage;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  mode: DeploymentMode;
  /** CORS, registration, rate limits and HTTP limits: resolved from the mode and the settings given. */
  security: SecuritySettings;
  dataDir: string;
  /** Outbound HTTP (webhook deliveries); injected so tests can observe or fail it. */
  fetch: typeof fetch;
  /** Internal events, for the parts of the server that react to changes made elsewhere: on this node or another. */
  events: EventBus;
  /** This node among the servers on its database: its id, the bus to the others, the live nodes. */
  cluster: Cluster;
  /** How costly new password hashes are: `fast` only for a test suite's throw-away server. */
  passwordHashing: PasswordHashing;
  version: string;
  /** What its parts count for Prometheus; undefined when the server serves no metrics (`--metrics-port`). */
  metrics?: MetricSink;
  /** OpenTelemetry spans (server/tracing), or `noTracing` when no OTEL_* variable asks for them. */
  tracing: Tracing;
}

export interface AppContext extends Infrastructure {
  services: Services;
}
