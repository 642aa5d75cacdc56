/**
 * What one server of the property test over the OpenAPI document holds before the bad inputs come: an owner and a
 * project with a key per environment, a room, a conversation with a message, a live stream, an attachment waiting
 * for its bytes, a webhook endpoint with a delivery; and credentials that are real but wrong (a stranger's session,
 * a revoked key). Made the same way on each server, so that the same case reaches the same rows on both.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_TOKEN_FILE } from '../../../server/backups/admin-token-file.js';
import {
  addMember,
  createConversation,
  createKey,
  createLiveStream,
  createProject,
  createRoom,
  mintChatToken,
  mintRtcToken,
  registerUser,
  registerWebhook,
  sendMessage,
} from '../factories.js';
import type { Client } from '../http.js';
import type { Fixtures } from './cases.js';

/** Well-formed ids of nothing: what no fixture gives (a fault, a recording, a connection, an error). */
const UNKNOWN = {
  faultId: 'flt_01JD3K5V8Q3N4M2X6Y7Z8A9B0C',
  recordingId: 'rec_01JD3K5V8Q3N4M2X6Y7Z8A9B0C',
  connectionId: 'conn_01JD3K5V8Q3N4M2X6Y7Z8A9B0C',
  errorId: 'err_01JD3K5V8Q3N4M2X6Y7Z8A9B0C',
};

export async function makeFixtures(api: Client, dataDir: string): Promise<Fixtures> {
  const owner = await registerUser(api, 'owner@fuzz.example.test');
  const stranger = await registerUser(api, 'stranger@fuzz.example.test');
  const member = await registerUser(api, 'member@fuzz.example.test');
  const project = await createProject(api, owner, 'Fuzzed');
  await addMember(api, project.id, owner, member, 'DEVELOPER');
  const key = (await createKey(api, project.id, owner, 'development')).key;
  const stagingKey = (await createKey(api, project.id, owner, 'staging')).key;
  const productionKey = (await createKey(api, project.id, owner, 'production')).key;
  const victimKey = await createKey(api, project.id, owner, 'development', 'revoked by the fuzzer');
  const revoked = await createKey(api, project.id, owner, 'development', 'revoked');
  await api.delete(`/v1/projects/${project.id}/api-keys/${revoked.id}`, { token: owner.token });

  const room = await createRoom(api, key, 'fuzz-room');
  const rtc = await mintRtcToken(api, key, room.id);
  const chatToken = await mintChatToken(api, key, 'alice');
  const conversation = await createConversation(api, key, { name: 'fuzz-conversation', members: ['alice', 'bob'] });
  const message = await sendMessage(api, key, conversation.id, { text: 'hello', senderId: 'alice' });
  await api.post(`/v1/chat/messages/${message.id}/reactions`, { token: chatToken, body: { emoji: '👍' } });
  const stream = await createLiveStream(api, key, 'Fuzzed stream');
  await api.post(`/v1/live-streams/${stream.id}/hosts`, { token: key, body: { identity: 'host-1', role: 'CO_HOST' } });
  const upload = { bytes: Buffer.from('hello'), contentType: 'text/plain' };
  const attachment = await api.post(`/v1/chat/conversations/${conversation.id}/attachments`, {
    token: chatToken,
    body: { filename: 'fuzz.txt', contentType: upload.contentType, size: upload.bytes.length },
  });
  const signed = new URL(attachment.body.uploadUrl as string).searchParams;

  const webhook = await registerWebhook(api, project.id, owner, { url: 'https://hooks.example.test/fuzz' });
  await api.post(`/v1/projects/${project.id}/webhooks/${webhook.id}/test`, {
    token: owner.token,
    body: { type: 'message.created' },
  });
  const deliveries = await api.get(`/v1/projects/${project.id}/webhooks/${webhook.id}/deliveries`, {
    token: owner.token,
  });
  const deliveryId: string = deliveries.body.data[0].id;
  // A saved snapshot of development, so that restoring and deleting one are fuzzed past the lookup.
  const snapshot = await api.post(`/v1/projects/${project.id}/environment/snapshots`, {
    token: owner.token,
    body: { name: 'fuzz-snapshot' },
  });
  if (snapshot.status !== 201) throw new Error(`Saving a snapshot answered ${snapshot.status}`);

  const byName: Record<string, string> = {
    roomId: room.id,
    streamId: stream.id,
    keyId: victimKey.id,
    room: conversation.id,
    conversationId: conversation.id,
    messageId: message.id,
    emoji: '👍',
    identity: 'host-1',
    attachmentId: attachment.body.id,
    webhookId: webhook.id,
    deliveryId,
    name: snapshot.body.name,
    ...UNKNOWN,
  };
  const credentials: Record<string, string> = {
    session: owner.token,
    apiKey: key,
    chatToken,
    rtcToken: rtc.token,
    adminToken: readFileSync(join(dataDir, ADMIN_TOKEN_FILE), 'utf8').trim(),
    strangerSession: stranger.token,
    stagingKey,
    productionKey,
    revokedKey: revoked.key,
  };
  return {
    pathParam(path, name) {
      if (name === 'id') {
        if (path.startsWith('/v1/projects/')) return project.id;
        if (path.startsWith('/v1/rooms/')) return room.id;
        if (path.startsWith('/v1/live-streams/')) return stream.id;
      }
      if (name === 'userId') return path.startsWith('/v1/projects/') ? member.id : 'bob';
      const value = byName[name];
      if (value === undefined) throw new Error(`No fixture for the path parameter ${name} of ${path}`);
      return value;
    },
    credential(name) {
      const value = credentials[name];
      if (value === undefined) throw new Error(`No credential called ${name}`);
      return value;
    },
    query(operationId) {
      return operationId === 'uploadAttachmentContent' || operationId === 'downloadAttachmentContent'
        ? [...signed]
        : [];
    },
    upload,
  };
}
