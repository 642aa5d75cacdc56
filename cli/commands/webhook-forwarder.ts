import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Environment, WebhookEventType } from '../../sdk/index.js';
import { verifyWebhook } from '../../sdk/node.js';
import { signatureHeader } from '../../server/webhooks/signature.js';
import type { CliContext } from '../context.js';
import { interrupted } from '../interrupt.js';
import { formatTime } from '../output.js';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

interface ReceivedEvent {
  eventId: string;
  eventType: string;
  /** The body exactly as the server sent it. */
  rawBody: string;
}

/**
 * A temporary endpoint on a loopback listener of this process (a local-mode server accepts
 * loopback targets), deleted again on Ctrl-C (SIGINT) or SIGTERM. `onEvent` sees each verified event.
 */
async function withTemporaryEndpoint(
  ctx: CliContext,
  options: { environment: Environment; events?: string[]; project?: string },
  onReady: (info: { webhookId: string; secret: string }) => void,
  onEvent: (event: ReceivedEvent, secret: string) => Promise<void>,
): Promise<void> {
  const client = ctx.client();
  const projectId = await ctx.projectId(options.project);
  let secret = '';
  const server = createServer(async (req, res) => {
    const body = await readBody(req).catch(() => '');
    if (!verifyWebhook(secret, req.headers['service-signature'] as string | undefined, body)) {
      res.writeHead(400).end('bad signature');
      return;
    }
    // Verified: the server sent it, and the server names every delivery's event in these headers.
    const event = {
      eventId: String(req.headers['service-event-id'] ?? ''),
      eventType: String(req.headers['service-event-type'] ?? ''),
      rawBody: body,
    };
    try {
      await onEvent(event, secret);
    } finally {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = await client.webhooks
    .register(projectId, {
      url: `http://127.0.0.1:${port}/`,
      environment: options.environment,
      events: (options.events ?? []) as WebhookEventType[],
    })
    .catch((err: unknown) => {
      // Nothing to listen for: without this the open listener would keep the process alive.
      server.close();
      throw err;
    });
  secret = endpoint.secret;
  onReady({ webhookId: endpoint.id, secret });
  await interrupted();
  server.close();
  await client.webhooks.delete(projectId, endpoint.id, { environment: options.environment });
  ctx.out.note(`Stopped: removed the temporary webhook ${endpoint.id}.`);
}

/** `switchboard webhooks listen`: the temporary endpoint, its loopback receiver and the forwarding. */
export async function listen(
  ctx: CliContext,
  flags: { forwardTo: string; environment: Environment; events?: string[]; project?: string },
): Promise<void> {
  await withTemporaryEndpoint(
    ctx,
    flags,
    ({ webhookId, secret }) => {
      ctx.out.note(
        `Ready: forwarding ${flags.environment} events to ${flags.forwardTo} (temporary webhook ${webhookId}).\n` +
          `Verify them with this signing secret, valid until you stop (Ctrl-C):\n\n  ${secret}\n`,
      );
    },
    async (event, secret) => {
      const body = event.rawBody;
      let outcome: string;
      let status: number | null = null;
      try {
        const res = await fetch(flags.forwardTo, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'service-signature': signatureHeader(secret, Math.floor(Date.now() / 1000), body),
            'service-event-id': event.eventId,
            'service-event-type': event.eventType,
          },
          body,
        });
        status = res.status;
        outcome = `${res.status} ${res.statusText}`.trim();
      } catch (err) {
        outcome = `failed: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}`;
      }
      ctx.out.event(
        { eventId: event.eventId, eventType: event.eventType, forwardStatus: status },
        () => `${formatTime(new Date().toISOString())}  ${event.eventType}  ${event.eventId}  → ${outcome}`,
      );
    },
  );
}
