import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { describeIssue, fieldProblems, parseClientInput } from '../../server/shared/issue-messages.js';

const member = z.strictObject({ userId: z.string(), role: z.enum(['OWNER', 'MEMBER']).optional() });
const body = z.strictObject({
  name: z.string().trim().min(1).max(8),
  count: z.number().int().min(1).max(50).optional(),
  ratio: z.number().lt(1).optional(),
  members: z.array(member).max(2).optional(),
  when: z.iso.datetime().optional(),
  email: z.email().optional(),
  id: z.union([z.string(), z.number()]).optional(),
  shape: z
    .discriminatedUnion('type', [z.object({ type: z.literal('a') }), z.object({ type: z.literal('b') })])
    .optional(),
  note: z.string().max(4, 'must be short').optional(),
  contact: z.email('must be an email address').optional(),
});

/** What a client is told for `input`: the human line of each issue, as `parseOrThrow` writes it. */
function told(input: unknown): string[] {
  const result = parseClientInput(body, input);
  if (result.success) return [];
  return result.error.issues.map((issue) => describeIssue(issue, 'body'));
}

describe('the words for what is wrong with a request', () => {
  it('says "required" only for what is missing', () => {
    expect(told({})).toEqual(['name: required']);
    expect(told({ name: 'x', members: [{}] })).toEqual(['members.0.userId: required']);
  });

  it('names the type expected and the type given', () => {
    expect(told({ name: 'x', count: '8' })).toEqual(['count: expected a number, got a string']);
    expect(told({ name: null })).toEqual(['name: expected a string, got null']);
    expect(told({ name: 'x', count: 1.5 })).toEqual(['count: expected an integer, got 1.5']);
    expect(told({ name: 'x', members: {} })).toEqual(['members: expected an array, got an object']);
    expect(told({ name: 'x', id: true })).toEqual(['id: expected a string or a number, got a boolean']);
  });

  it('says a query number that is no number is not one', () => {
    const query = z.strictObject({ limit: z.coerce.number().int().min(1).optional() });
    const result = parseClientInput(query, { limit: 'abc' });
    expect(result.error?.issues.map((i) => describeIssue(i, 'query'))).toEqual([
      'limit: expected a number, got something that is not a number',
    ]);
  });

  it('shows the fields of the object expected, for a value of the wrong shape', () => {
    expect(told(['x'])).toEqual([
      'body: expected an object {name, count?, ratio?, members?, when?, email?, id?, shape?, note?, contact?}, got an array',
    ]);
    expect(told({ name: 'x', members: ['alice', 'bob'] })).toEqual([
      'members.0: expected an object {userId, role?}, got a string',
      'members.1: expected an object {userId, role?}, got a string',
    ]);
  });

  it('says the limit and its value', () => {
    expect(told({ name: 'x', count: 51 })).toEqual(['count: must be at most 50, got 51']);
    expect(told({ name: 'x', count: 0 })).toEqual(['count: must be at least 1, got 0']);
    expect(told({ name: 'x', ratio: 1 })).toEqual(['ratio: must be less than 1, got 1']);
    expect(told({ name: 'abcdefghij' })).toEqual(['name: must be at most 8 characters (this one has 10)']);
    expect(told({ name: ' ' })).toEqual(['name: must not be empty']);
    const three = [{ userId: 'a' }, { userId: 'b' }, { userId: 'c' }];
    expect(told({ name: 'x', members: three })).toEqual(['members: must have at most 2 items (this one has 3)']);
  });

  it('lists the values allowed and the formats expected', () => {
    expect(told({ name: 'x', members: [{ userId: 'a', role: 'owner' }] })).toEqual([
      'members.0.role: expected one of "OWNER", "MEMBER", got "owner"',
    ]);
    expect(told({ name: 'x', shape: { type: 'c' } })).toEqual(['shape.type: expected one of "a", "b", got "c"']);
    expect(told({ name: 'x', when: 'tomorrow' })).toEqual([
      'when: must be a date and time in ISO 8601 with a Z, e.g. 2026-01-31T12:00:00Z',
    ]);
    expect(told({ name: 'x', email: 'nobody' })).toEqual(['email: must be an email address']);
  });

  it('keeps a message the schema gives itself', () => {
    expect(told({ name: 'x', note: 'longer' })).toEqual(['note: must be short']);
    // For a value of the wrong type, with the type given; and missing is still "required".
    expect(told({ name: 'x', contact: 5 })).toEqual(['contact: must be an email address, got a number']);
    expect(told({ name: 'x', contact: 'nobody' })).toEqual(['contact: must be an email address']);
    expect(told({ contact: 'a@b.test' })).toEqual(['name: required']);
  });

  it('tells unknown fields apart, in the message and in `fields`', () => {
    const result = parseClientInput(body, { name: 'x', colour: 'blue', count: '2' });
    expect(result.success).toBe(false);
    const issues = result.error?.issues ?? [];
    expect(issues.map((i) => describeIssue(i, 'body'))).toEqual([
      'count: expected a number, got a string',
      'unknown body field "colour"',
    ]);
    expect(issues.flatMap(fieldProblems)).toEqual([
      { path: 'count', message: 'expected a number, got a string' },
      { path: 'colour', message: 'unknown field' },
    ]);
  });
});
