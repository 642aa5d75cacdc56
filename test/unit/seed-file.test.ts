import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSeed, SeedError, seedJsonSchema, stripComments } from '../../server/seeds/index.js';

const user = { email: 'dev@example.com', password: 'development only' };
const KEY = 'sb_dev_seededbackend01.seededSecretForTests0123456789';
const project = (fields: Record<string, unknown>) => ({ user, projects: [{ name: 'App', ...fields }] });

const errorOf = (value: unknown) => {
  try {
    parseSeed(typeof value === 'string' ? value : JSON.stringify(value), 'app.seed.json');
  } catch (err) {
    expect(err).toBeInstanceOf(SeedError);
    return (err as Error).message;
  }
  throw new Error('the seed was accepted');
};

describe('seed files', () => {
  it.each([
    [{ projects: [] }, 'user: '],
    [{ user: { ...user, email: 'nope' } }, 'user.email: must be an email address'],
    [{ user, extra: 1 }, '(the file): unknown field "extra"'],
    [{ user, version: 2 }, 'version: '],
    [
      project({ apiKeys: [{ name: 'k', environment: 'staging', key: KEY }] }),
      'projects[0].apiKeys[0].key: must be a staging key: sb_stg_',
    ],
    [
      project({ apiKeys: [{ name: 'k', environment: 'development', key: 'sb_dev_short.secret' }] }),
      'projects[0].apiKeys[0].key: must be a development key',
    ],
    [
      project({
        apiKeys: [
          { name: 'a', environment: 'development', key: KEY },
          { name: 'b', environment: 'development', key: KEY },
        ],
      }),
      'projects[0].apiKeys[1].key: has the same public part as another key',
    ],
    [
      project({ apiKeys: [{ name: 'k', environment: 'qa', key: KEY }] }),
      'projects[0].apiKeys[0].environment: must be one of',
    ],
    [
      project({
        rooms: [
          { environment: 'development', name: 'lobby' },
          { environment: 'development', name: 'lobby' },
        ],
      }),
      "projects[0].rooms[1].name: is used by another of the project's rooms in development",
    ],
    [
      project({ rooms: [{ environment: 'development', name: 'big', maxParticipants: 1000 }] }),
      'projects[0].rooms[0].maxParticipants: ',
    ],
    [project({ members: [{ ...user, role: 'ADMIN' }] }), 'projects[0].members[0].email: is the seed’s user'],
    [
      project({ members: [{ email: 'x@example.com', password: 'long enough', role: 'BOSS' }] }),
      'projects[0].members[0].role: expected one of "OWNER", "ADMIN", "DEVELOPER", "VIEWER", "BILLING", got "BOSS"',
    ],
    [
      project({ webhooks: [{ environment: 'development', url: 'http://localhost/h', secret: 'nope' }] }),
      'projects[0].webhooks[0].secret: must be whsec_ followed by 24 to 128 letters and digits',
    ],
    [
      project({ webhooks: [{ environment: 'development', url: 'not a url' }] }),
      'projects[0].webhooks[0].url: must be an absolute URL',
    ],
    [
      project({ webhooks: [{ environment: 'development', url: 'http://localhost/h', events: ['nope.created'] }] }),
      'projects[0].webhooks[0].events[0]: ',
    ],
  ])('refuses %j, naming the field', (seed, message) => {
    const text = errorOf(seed);
    expect(text).toMatch(/^app\.seed\.json is not a valid seed; nothing was created:\n/);
    expect(text).toContain(`  ${message}`);
  });

  it('says where a file is not JSON', () => {
    expect(errorOf('{\n  "user": {\n    "email": "a@b.co",,\n  }\n}')).toMatch(
      /^app\.seed\.json is not JSON \(line 3\)/,
    );
  });

  it('takes // and /* */ comments, but not inside strings', () => {
    const text = `// a seed
    { /* the owner */ "user": { "email": "dev@example.com", "password": "has // and /* inside" } }`;
    expect(parseSeed(text, 'x').user.password).toBe('has // and /* inside');
    expect(stripComments('"a\\"//b" // c')).toBe('"a\\"//b"     ');
  });

  it('has its JSON Schema committed as schemas/seed.json (regenerate it from seedJsonSchema() when the schema changes)', () => {
    expect(JSON.parse(readFileSync('schemas/seed.json', 'utf8'))).toEqual(seedJsonSchema());
  });
});
