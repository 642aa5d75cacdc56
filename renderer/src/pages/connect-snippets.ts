import type { Snippet } from '../components/snippet';
import type { Environment } from '../sdk';

export interface SnippetValues {
  url: string;
  /** The full key when it was just created on this page; otherwise a placeholder that says where to get one. */
  key: string;
  environment: Environment;
}

/** Ready-to-paste code with this server's URL and the key: what a developer copies into their app. */
export function connectSnippets({ url, key, environment }: SnippetValues): Snippet[] {
  return [
    {
      id: 'env',
      label: '.env',
      language: 'dotenv',
      // The same lines as `switchboard status --env-file`.
      code: `SWITCHBOARD_URL=${url}\nSWITCHBOARD_API_KEY=${key}\n`,
    },
    {
      id: 'server',
      label: 'SDK: server',
      language: 'ts',
      code: `// Your backend, with the ${environment} API key. (@switchboard/sdk: packed from a Switchboard clone, docs/sdk.md.)
import { ServerClient } from '@switchboard/sdk';

const switchboard = new ServerClient({
  baseUrl: process.env.SWITCHBOARD_URL, // ${url}
  apiKey: process.env.SWITCHBOARD_API_KEY,
});

const room = await switchboard.rooms.create({ name: 'lobby' });
// Mint a chat token for a signed-in user of your app and hand it to their browser.
const { token } = await switchboard.chatTokens.create({ userId: 'user-123' });
`,
    },
    {
      id: 'browser',
      label: 'SDK: browser chat',
      language: 'ts',
      code: `// The browser, with the chat token your backend minted (never an API key).
import { ChatClient } from '@switchboard/sdk';

const chat = new ChatClient({ baseUrl: '${url}', token });
chat.on('message.created', (event) => console.log(event.data.message));
await chat.connect();
`,
    },
    {
      id: 'curl',
      label: 'curl',
      language: 'sh',
      code: `curl -X POST ${url}/v1/rooms \\
  -H 'Authorization: Bearer ${key}' \\
  -H 'Content-Type: application/json' \\
  -d '{"name": "lobby"}'
`,
    },
  ];
}
