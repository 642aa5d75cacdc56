import { expect } from 'vitest';
import type { Environment } from '../../db/schema/environment.js';
import type { DeploymentMode } from '../../server/context.js';
import { createEventBus, type EventBus } from '../../server/events/bus.js';
import { EVENT_CATALOGUE, type EventType } from '../../server/webhooks/catalogue.js';
import { createProject, registerUser, type TestUser } from './factories.js';
import { type Client, client } from './http.js';
import { manualClock, startTestServer, type TestServer } from './server.js';
import { startReceiver, type WebhookReceiver } from './webhook-receiver.js';

export interface RegisteredWebhook {
  id: string;
  url: string;
  environment: string;
  events: string[];
  enabled: boolean;
  consecutiveFailures: number;
  secret: string;
}

/**
 * A server with a manual clock and an injected event bus, a signed-in owner and a project: what the
 * webhook tests need to emit catalogue events (as the chat and room services will) and move time.
 */
export interface WebhookHarness {
  server: TestServer;
  api: Client;
  clock: ReturnType<typeof manualClock>;
  events: EventBus;
  owner: TestUser;
  projectId: string;
  /** A loopback receiver, closed by `dispose()`. */
  receiver(): Promise<WebhookReceiver>;
  register(body: { url: string; environment?: string; events?: string[] }): Promise<RegisteredWebhook>;
  /** Emits a catalogue event on the bus, with the catalogue example as data unless given. */
  emit(type: EventType, environment?: Environment, data?: Record<string, unknown>, projectId?: string): void;
  /** The delivery log of an endpoint (first page, newest first). */
  deliveries(webhook: { id: string; environment: string }, query?: string): Promise<any[]>;
  endpoint(webhook: { id: string; environment: string }): Promise<any>;
  /** Stops the server and starts another on the same data folder, clock and bus. */
  restart(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startWebhookHarness(options: { mode?: DeploymentMode } = {}): Promise<WebhookHarness> {
  const clock = manualClock();
  const events = createEventBus();
  let server = await startTestServer({ clock, events, mode: options.mode });
  let api = client(server.url);
  const owner = await registerUser(api);
  const projectId = (await createProject(api, owner)).id;
  const receivers: WebhookReceiver[] = [];
  const envQuery = (environment: string) => `environment=${environment.toLowerCase()}`;

  const harness: WebhookHarness = {
    get server() {
      return server;
    },
    get api() {
      return api;
    },
    clock,
    events,
    owner,
    projectId,
    async receiver() {
      const receiver = await startReceiver();
      receivers.push(receiver);
      return receiver;
    },
    async register(body) {
      const res = await api.post(`/v1/projects/${projectId}/webhooks`, {
        token: owner.token,
        body: { environment: 'development', ...body },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    },
    emit(type, environment = 'development', data = EVENT_CATALOGUE[type].example, project = projectId) {
      events.emit('catalogue', { type, projectId: project, environment, data });
    },
    async deliveries(webhook, query = '') {
      const res = await api.get(
        `/v1/projects/${projectId}/webhooks/${webhook.id}/deliveries?${envQuery(webhook.environment)}${query}`,
        { token: owner.token },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    },
    async endpoint(webhook) {
      const res = await api.get(`/v1/projects/${projectId}/webhooks/${webhook.id}?${envQuery(webhook.environment)}`, {
        token: owner.token,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    },
    async restart() {
      server = await server.restart();
      api = client(server.url);
    },
    async dispose() {
      await server.dispose();
      await Promise.all(receivers.map((receiver) => receiver.close()));
    },
  };
  return harness;
}

/** The request's JSON body. */
export const envelopeOf = (request: { rawBody: Buffer }) => JSON.parse(request.rawBody.toString('utf8'));

/** The `t` of a `Service-Signature` header. */
export const signatureTime = (header: string | string[] | undefined) => Number(/t=(\d+)/.exec(String(header))?.[1]);
