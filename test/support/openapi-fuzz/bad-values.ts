/**
 * Values no client should send, as fast-check arbitraries: what the property test over the OpenAPI document
 * (test/db/openapi-fuzz.test.ts) puts where a path parameter, a query parameter, a body field or a whole body goes.
 */
import fc from 'fast-check';

const NUL = '\u0000';

/** Nested `depth` times: `[[[…]]]`. */
function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Strings that have broken servers: NUL, path tricks, percent signs, lone surrogates, SQL, very long ones. */
export const badString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    NUL,
    `a${NUL}b`,
    '',
    ' ',
    '.',
    '..',
    '%',
    '%00',
    '%zz',
    '/',
    '\\',
    '*',
    '😀',
    '\u202e',
    '\ud800',
    '\uffff',
    'null',
    'undefined',
    'true',
    '0',
    '-1',
    '1e309',
    'NaN',
    "' OR '1'='1",
    '%_\\',
    '<script>',
    'prj_00000000000000000000000000',
    'x'.repeat(129),
    'x'.repeat(2049),
    'é'.repeat(3000),
  ),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ maxLength: 12 }).map((text) => `${text}${NUL}`),
);

/** A JSON value of the wrong type, size or shape for any field. */
export const badJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    0.5,
    1e308,
    -1e308,
    2 ** 53,
    -(2 ** 53),
    2 ** 31,
    [],
    {},
    [null],
    { '': NUL },
    JSON.parse('{"__proto__":{"polluted":true}}'),
    'x'.repeat(70_000),
    nested(200),
  ),
  badString,
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.jsonValue({ maxDepth: 2 }),
  fc.array(badString, { maxLength: 3 }),
);

/** A query parameter's value: wrong type, out of range, or a bad string. */
export const badQueryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('-1', '0', '1.5', '1e309', '99999999999999999999', 'abc', 'true', '[]', '{}', '2026-13-45', 'ALL'),
  badString,
);

/** A whole request body that is not the JSON object asked for: raw text and its Content-Type. */
export const badRawBody: fc.Arbitrary<{ raw: string; contentType?: string }> = fc.oneof(
  fc
    .constantFrom(
      '[]',
      '"x"',
      '1',
      'null',
      'true',
      '{',
      '{"a":',
      '',
      NUL,
      '{"a":1,"a":2}',
      '\ufeff{}',
      `"${'x'.repeat(10)}`,
    )
    .map((raw) => ({ raw, contentType: 'application/json' })),
  fc.constantFrom(
    { raw: '{}', contentType: 'text/plain' },
    { raw: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
    { raw: '{}', contentType: undefined },
    { raw: '{}', contentType: 'application/json; charset=latin1' },
    { raw: '{}', contentType: 'multipart/form-data; boundary=x' },
  ),
);

/** An Authorization header's token that names no one, in a header Node will send (printable ASCII). */
export const badToken: fc.Arbitrary<string> = fc.constantFrom(
  'x',
  'Bearer x',
  'sk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  'sk_live_%00',
  'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
  'ses_..',
  'A'.repeat(4000),
);
