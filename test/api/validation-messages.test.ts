import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, projectWithKeys } from '../support/factories.js';
import { useTestServer } from '../support/use-test-server.js';

// What a client is told about input it got wrong: what was wrong and what to send instead (issue 46).
const t = useTestServer();

let key: string;
beforeAll(async () => {
  key = (await projectWithKeys(t.api)).keys.development;
});

/** The 400 answer to `body` on `path`: its message and `fields`. */
async function refused(path: string, body: unknown) {
  const res = await t.api.post(path, { token: key, rawBody: JSON.stringify(body), headers: JSON_TYPE });
  expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
  return { message: res.body.message as string, fields: res.body.fields as { path: string; message: string }[] };
}
const JSON_TYPE = { 'content-type': 'application/json' };

describe('a validation error', () => {
  it('names the type expected and the type given, not "required"', async () => {
    const res = await refused('/v1/rooms', { name: 't', maxParticipants: '8' });
    expect(res.message).toBe('Invalid request body: maxParticipants: expected a number, got a string.');
    expect(res.fields).toEqual([{ path: 'maxParticipants', message: 'expected a number, got a string' }]);
    expect((await refused('/v1/rooms', { name: null })).message).toBe(
      'Invalid request body: name: expected a string, got null.',
    );
  });

  it('names the shape of a body that is not an object', async () => {
    const res = await refused('/v1/rooms', [{ name: 't' }]);
    expect(res.message).toBe(
      'Invalid request body: body: expected an object {name, maxParticipants?, metadata?}, got an array.',
    );
    expect(res.fields).toEqual([
      { path: '', message: 'expected an object {name, maxParticipants?, metadata?}, got an array' },
    ]);
  });

  it('shows that members are objects, by their fields', async () => {
    const res = await refused('/v1/chat/conversations', { name: 'c', members: ['alice', 'bob'] });
    expect(res.message).toBe(
      'Invalid request body: members.0: expected an object {userId, role?}, got a string; ' +
        'members.1: expected an object {userId, role?}, got a string.',
    );
    expect(res.fields.map((f) => f.path)).toEqual(['members.0', 'members.1']);
  });

  it('tells missing, unknown, out-of-range and unlisted values apart, each with its path', async () => {
    const res = await refused('/v1/chat/conversations', {
      members: [{ role: 'boss' }],
      colour: 'blue',
    });
    expect(res.fields).toEqual([
      { path: 'name', message: 'required' },
      { path: 'members.0.userId', message: 'required' },
      { path: 'members.0.role', message: 'expected one of "MEMBER", "MODERATOR", "ADMIN", got "boss"' },
      { path: 'colour', message: 'unknown field' },
    ]);
    expect(res.message).toMatch(/unknown body field "colour"/);
    expect((await refused('/v1/rooms', { name: 't', maxParticipants: 1000 })).message).toMatch(
      /^Invalid request body: maxParticipants: must be at most \d+, got 1000\.$/,
    );
    expect((await refused('/v1/rooms', { name: 'x'.repeat(129) })).message).toBe(
      'Invalid request body: name: must be at most 128 characters.',
    );
  });

  it('says the body limit and the size of a body over it', async () => {
    const res = await t.api.post('/v1/rooms', { token: key, body: { name: 'x'.repeat(2 * 1024 * 1024) } });
    expectError(res, 413, 'SERVICE_PAYLOAD_TOO_LARGE');
    expect(res.body.message).toBe('The request body is too large: at most 1 MB (this one is 2.0 MB).');
  });
});
