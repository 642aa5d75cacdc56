/** What `switchboard seed init` writes: every kind of object a seed can create, each explained. */
export const exampleSeed =
  () => `// A Switchboard seed: what \`switchboard serve --seed switchboard.seed.json\` (or SWITCHBOARD_SEED)
// creates when the data folder is empty. On a folder that holds accounts or projects it does nothing,
// so restarting with the same seed is safe. JSON with comments; the schema below gives your editor
// completion and checks (served by a running server, and in the repository as schemas/seed.json).
// The whole file is applied in one transaction: an error names the field and nothing is created.
// Keys and webhook secrets here are for development and CI: a production-mode server refuses them.
{
  "$schema": "http://127.0.0.1:4700/schemas/seed.json",
  "version": 1,

  // The account that owns every project below; sign in to the dashboard or \`switchboard login\` with it.
  "user": { "email": "dev@example.com", "password": "development only", "name": "Developer" },

  "projects": [
    {
      "name": "My app",

      // Other accounts, created with these passwords and added with a role:
      // OWNER, ADMIN, DEVELOPER, VIEWER or BILLING.
      "members": [
        { "email": "teammate@example.com", "password": "development only", "role": "DEVELOPER" }
      ],

      // API keys whose text you choose, so your app's .env and CI can hold a stable key.
      // sb_<dev|stg|prod>_<8-64 letters and digits>.<16-128 letters and digits>, matching "environment".
      "apiKeys": [
        {
          "name": "backend",
          "environment": "development",
          "key": "sb_dev_myappbackend0001.replaceThisWithYourOwnSecret0001"
        }
      ],

      // Rooms, as POST /v1/rooms takes them, plus their environment.
      "rooms": [{ "environment": "development", "name": "lobby", "maxParticipants": 8 }],

      // Conversations, as POST /v1/chat/conversations takes them, plus their environment.
      // Members are your app's user ids; roles MEMBER (default), MODERATOR or ADMIN.
      "conversations": [
        {
          "environment": "development",
          "name": "general",
          "members": [{ "userId": "alice", "role": "ADMIN" }, { "userId": "bob" }]
        }
      ],

      // Webhook endpoints, as POST /v1/projects/{id}/webhooks takes them. "events" empty means every
      // event; "secret" (whsec_ and 24 to 128 letters and digits) is the one your app verifies with.
      "webhooks": [
        {
          "environment": "development",
          "url": "http://localhost:3000/webhooks/switchboard",
          "events": ["message.created", "room.created"],
          "secret": "whsec_replaceThisWithYourOwnSecret0001"
        }
      ]
    }
  ]
}
`;
