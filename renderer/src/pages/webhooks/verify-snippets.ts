// With its extension: test/unit runs this file under Node's module resolution too.
import type { Snippet } from '../../components/snippet.js';

/** Where the endpoint listens, read from its URL: the handler's path and port in the snippets. */
function listenerOf(url: string): { path: string; port: string } {
  try {
    const parsed = new URL(url);
    return {
      path: parsed.pathname || '/',
      port: parsed.port || (parsed.protocol === 'https:' ? '443' : '80'),
    };
  } catch {
    return { path: '/webhooks', port: '3000' };
  }
}

/**
 * A handler that verifies the `Service-Signature` of each delivery, filled with the endpoint's path and port: with
 * the SDK's `verifyWebhook`, and in plain Node (node:crypto only) doing what it does.
 */
export function verifySnippets({ url, events }: { url: string; events: string[] }): Snippet[] {
  const { path, port } = listenerOf(url);
  const first = events[0] ?? 'message.created';
  return [
    {
      id: 'sdk',
      label: 'Node with the SDK',
      language: 'ts',
      code: `// Your app's handler for ${url}. (@switchboard/sdk: packed from a Switchboard clone, docs/sdk.md.)
import express from 'express';
import { verifyWebhook } from '@switchboard/sdk/node';

// The endpoint's signing secret (whsec_…), shown once when it was added.
const secret = process.env.SWITCHBOARD_WEBHOOK_SECRET;
const app = express();

// The raw bytes, not parsed JSON: the signature covers the body exactly as sent.
app.post('${path}', express.raw({ type: 'application/json' }), (req, res) => {
  if (!verifyWebhook(secret, req.get('service-signature'), req.body)) {
    return res.status(400).send('bad signature');
  }
  const event = JSON.parse(req.body.toString('utf8'));
  // A retry carries the same event.id (also in Service-Event-Id): skip ids you have handled.
  if (event.type === '${first}') {
    console.log(event.data);
  }
  res.sendStatus(204); // within 5 s, or the attempt fails and is retried
});

app.listen(${port});
`,
    },
    {
      id: 'plain',
      label: 'Node without dependencies',
      language: 'js',
      code: `// Your app's handler for ${url}, with nothing but Node.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

// The endpoint's signing secret (whsec_…), shown once when it was added.
const secret = process.env.SWITCHBOARD_WEBHOOK_SECRET;

// Service-Signature is "t=<unix seconds>,v1=<hex HMAC-SHA256 of '<t>.<raw body>'>".
function verify(header, rawBody) {
  const parts = (header ?? '').split(',').map((part) => part.trim().split('='));
  const t = parts.find(([name]) => name === 't')?.[1];
  const given = parts.filter(([name, value]) => name === 'v1' && /^[0-9a-f]{64}$/.test(value ?? ''));
  if (!t || !/^\\d+$/.test(t) || given.length === 0) return false;
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false; // too old or too new: a replay
  const expected = createHmac('sha256', secret).update(\`\${t}.\`).update(rawBody).digest();
  return given.some(([, value]) => timingSafeEqual(Buffer.from(value, 'hex'), expected));
}

createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '${path}') return res.writeHead(404).end();
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const rawBody = Buffer.concat(chunks);
    if (!verify(req.headers['service-signature'], rawBody)) return res.writeHead(400).end('bad signature');
    const event = JSON.parse(rawBody.toString('utf8'));
    // A retry carries the same event.id (also in Service-Event-Id): skip ids you have handled.
    if (event.type === '${first}') console.log(event.data);
    res.writeHead(204).end(); // within 5 s, or the attempt fails and is retried
  });
}).listen(${port});
`,
    },
  ];
}
