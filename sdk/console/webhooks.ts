import { paginate } from '../paginate.js';
import type { Transport } from '../transport.js';
import type {
  EnvironmentInput,
  RegisteredWebhook,
  RegisterWebhookInput,
  UpdateWebhookInput,
  WebhookCatalogue,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookDeliveryBody,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEventType,
} from '../types.js';

/** A project's webhook endpoints, each bound to one environment; calls act in development unless told otherwise. */
export class WebhooksResource {
  constructor(private readonly transport: Transport) {}

  /** The event catalogue: every type an endpoint can subscribe to, with its description and an example `data`. */
  eventTypes(): Promise<WebhookCatalogue> {
    return this.transport.call('listWebhookEventTypes');
  }

  /** The answer's `secret` is the signing secret, shown this once. */
  register(projectId: string, input: RegisterWebhookInput): Promise<RegisteredWebhook> {
    return this.transport.call('registerWebhook', { params: { id: projectId }, body: input });
  }

  list(projectId: string, options: EnvironmentInput = {}): Promise<WebhookEndpointList> {
    return this.transport.call('listWebhooks', {
      params: { id: projectId },
      query: { environment: options.environment },
    });
  }

  get(projectId: string, webhookId: string, options: EnvironmentInput = {}): Promise<WebhookEndpoint> {
    return this.transport.call('getWebhook', {
      params: { id: projectId, webhookId },
      query: { environment: options.environment },
    });
  }

  update(
    projectId: string,
    webhookId: string,
    input: UpdateWebhookInput,
    options: EnvironmentInput = {},
  ): Promise<WebhookEndpoint> {
    return this.transport.call('updateWebhook', {
      params: { id: projectId, webhookId },
      query: { environment: options.environment },
      body: input,
    });
  }

  delete(projectId: string, webhookId: string, options: EnvironmentInput = {}): Promise<void> {
    return this.transport.call('deleteWebhook', {
      params: { id: projectId, webhookId },
      query: { environment: options.environment },
    });
  }

  /** One page of an endpoint's deliveries, newest first, filtered by `status` and `eventType` when given. */
  deliveries(projectId: string, webhookId: string, query: WebhookDeliveriesQuery = {}): Promise<WebhookDeliveryPage> {
    return this.transport.call('listWebhookDeliveries', { params: { id: projectId, webhookId }, query });
  }

  allDeliveries(
    projectId: string,
    webhookId: string,
    query: Omit<WebhookDeliveriesQuery, 'cursor'> = {},
  ): AsyncGenerator<WebhookDelivery, void, undefined> {
    return paginate((cursor) => this.deliveries(projectId, webhookId, { ...query, cursor }));
  }

  delivery(
    projectId: string,
    webhookId: string,
    deliveryId: string,
    options: EnvironmentInput = {},
  ): Promise<WebhookDelivery> {
    return this.transport.call('getWebhookDelivery', {
      params: { id: projectId, webhookId, deliveryId },
      query: { environment: options.environment },
    });
  }

  /**
   * The request body every attempt of the delivery sends (the event envelope as JSON text). Takes
   * `webhooks:manage`: the envelope may carry message text.
   */
  deliveryBody(
    projectId: string,
    webhookId: string,
    deliveryId: string,
    options: EnvironmentInput = {},
  ): Promise<WebhookDeliveryBody> {
    return this.transport.call('getWebhookDeliveryBody', {
      params: { id: projectId, webhookId, deliveryId },
      query: { environment: options.environment },
    });
  }

  /** Queues one more attempt of the delivery, due now: the same event id and body, a fresh signature. */
  resend(
    projectId: string,
    webhookId: string,
    deliveryId: string,
    options: EnvironmentInput = {},
  ): Promise<WebhookDelivery> {
    return this.transport.call('resendWebhookDelivery', {
      params: { id: projectId, webhookId, deliveryId },
      query: { environment: options.environment },
    });
  }

  /** Queues a sample event of `type` to this endpoint. */
  test(
    projectId: string,
    webhookId: string,
    type: WebhookEventType,
    options: EnvironmentInput = {},
  ): Promise<WebhookDelivery> {
    return this.transport.call('sendTestWebhook', {
      params: { id: projectId, webhookId },
      query: { environment: options.environment },
      body: { type },
    });
  }
}
