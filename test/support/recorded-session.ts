import { expect } from 'vitest';
import {
  createConversation,
  createRoom,
  mintChatToken,
  mintRtcToken,
  projectWithKeys,
  registerWebhook,
} from './factories.js';
import type { Client } from './http.js';
import { connectRealtime, connectSignaling } from './socket-client.js';
import { eventually } from './wait.js';
import { startReceiver, type WebhookReceiver } from './webhook-receiver.js';

/** Answers each event's first attempt 500 and its retries 200, whichever run of a scenario sent it. */
export async function failingOnceReceiver(): Promise<WebhookReceiver> {
  const receiver = await startReceiver();
  const seen = new Set<string>();
  receiver.reply((request) => {
    const eventId = String(JSON.parse(request.rawBody.toString('utf8')).id);
    if (seen.has(eventId)) return { status: 200, body: 'ok' };
    seen.add(eventId);
    return { status: 500, body: 'down' };
  });
  return receiver;
}

/**
 * Records the scenario of issue 49 in a new project's development environment: chat over REST and realtime, RTC
 * signaling, and a webhook endpoint (on `receiver`) whose first attempt fails and whose retry, due after a test-clock
 * advance, succeeds. Resolves with the HAR document and the project it was recorded in.
 */
export async function recordChatSession(api: Client, url: string, receiver: WebhookReceiver) {
  const { owner, project, keys } = await projectWithKeys(api);
  const webhook = await registerWebhook(api, project.id, owner, { url: receiver.url, events: ['room.created'] });
  const recordings = `/v1/projects/${project.id}/environment/recordings`;
  const started = await api.post(`${recordings}?environment=development`, { token: owner.token, body: {} });
  expect(started.status).toBe(201);
  const recordingId = started.body.id as string;
  const before = receiver.requests.length;

  const chatToken = await mintChatToken(api, keys.development, 'alice');
  const conversation = await createConversation(api, keys.development, { members: ['alice', 'bob'] });
  const realtime = connectRealtime(url, chatToken);
  await realtime.next('connected');
  realtime.send({ type: 'ping' });
  await realtime.next('pong');
  const sent = await api.post(`/v1/chat/conversations/${conversation.id}/messages`, {
    token: chatToken,
    body: { text: 'recorded hello' },
  });
  expect(sent.status).toBe(201);
  await realtime.next('message.created');
  const listed = await api.get(`/v1/chat/conversations/${conversation.id}/messages`, { token: chatToken });
  expect(listed.status).toBe(200);
  realtime.close();

  const room = await createRoom(api, keys.development, 'recorded-room');
  const rtc = await mintRtcToken(api, keys.development, room.id);
  const signaling = connectSignaling(url, rtc.token);
  await signaling.next('joined');
  signaling.send({ type: 'ping' });
  await signaling.next('pong');
  signaling.close();

  // room.created: the first attempt fails; the retry, due 10 s later on the test clock, succeeds once it is advanced.
  await receiver.waitForRequests(before + 1, 5000);
  const advanced = await api.post(`/v1/projects/${project.id}/environment/clock/advance?environment=development`, {
    token: owner.token,
    body: { seconds: 60 },
  });
  expect(advanced.status).toBe(200);
  await receiver.waitForRequests(before + 2, 5000);

  const harPath = `${recordings}/${recordingId}/har?environment=development`;
  await eventually(
    async () => (await api.get(harPath, { token: owner.token })).body,
    (har) =>
      har.log.entries.filter((e: { _webSocketClose?: unknown }) => e._webSocketClose).length === 2 &&
      har.log.entries.filter((e: { _switchboardKind?: string }) => e._switchboardKind === 'webhook').length === 2,
    5000,
  );
  expect(
    (await api.post(`${recordings}/${recordingId}/stop?environment=development`, { token: owner.token })).status,
  ).toBe(200);
  const har = (await api.get(harPath, { token: owner.token })).body;
  return { har, owner, project, keys, webhook };
}
