// A developer's web app, served from its own origin: it uses the SDK's browser build with chat and RTC tokens its
// backend minted, as an app does (plain browser JS, loaded by test/browser/cross-origin.test.ts).
import { ChatClient } from './sdk.js';

/** Waits for the first realtime `message.created` whose text is `text`. */
function nextMessage(client, text) {
  return new Promise((resolve) => {
    const off = client.on('message.created', (event) => {
      if (event.data.message.text !== text) return;
      off();
      resolve(event);
    });
  });
}

const describe = (error) => ({ name: error.name, code: error.code, status: error.status, message: error.message });

window.chatApp = {
  /** Chat over REST and realtime, an attachment through its signed URLs, and telemetry: what a call and chat app does. */
  async run({ baseUrl, aliceToken, bobToken, rtcToken, conversationId }) {
    const alice = new ChatClient({ baseUrl, token: aliceToken, reconnect: false });
    let bobSocket;
    const bob = new ChatClient({
      baseUrl,
      token: bobToken,
      reconnect: false,
      onSocket: (socket) => {
        bobSocket = socket;
      },
    });
    await bob.connect();
    const received = nextMessage(bob, 'Hello from another origin');

    const sent = await alice.messages.send(conversationId, { text: 'Hello from another origin' });
    const event = await received;
    // A frame over 1 KB, which the server compresses for a browser (it offers permessage-deflate).
    const longText = 'A longer message from another origin. '.repeat(60);
    const receivedLong = nextMessage(bob, longText);
    await alice.messages.send(conversationId, { text: longText });
    const longEvent = await receivedLong;
    const page = await bob.messages.list(conversationId);

    const bytes = new TextEncoder().encode('attachment bytes from a browser app');
    const attachment = await alice.attachments.upload(conversationId, {
      filename: 'notes.txt',
      contentType: 'text/plain',
      data: bytes,
    });
    const { url } = await bob.attachments.downloadUrl(attachment.id);
    const download = await fetch(url);

    const telemetry = await fetch(`${baseUrl}/v1/telemetry/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rtcToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ events: [{ type: 'call.joined', data: { from: 'browser' } }] }),
    });
    bob.close();
    return {
      sentId: sent.id,
      receivedId: event.data.message.id,
      socketExtensions: bobSocket.extensions,
      longReceived: longEvent.data.message.text === longText,
      listedTexts: page.data.map((message) => message.text),
      attachmentStatus: attachment.status,
      download: { status: download.status, text: await download.text() },
      telemetry: {
        status: telemetry.status,
        body: await telemetry.json(),
        requestId: telemetry.headers.get('x-request-id'),
      },
    };
  },

  /** One REST call; answers what the app sees of its failure, if any. */
  async tryList({ baseUrl, token }) {
    try {
      const page = await new ChatClient({ baseUrl, token, reconnect: false }).conversations.list();
      return { ok: true, count: page.data.length };
    } catch (error) {
      return { ok: false, error: describe(error) };
    }
  },
};
