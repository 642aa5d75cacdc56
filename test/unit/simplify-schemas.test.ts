import { describe, expect, it } from 'vitest';
import { simplifySchemas } from '../../server/openapi/simplify-schemas.js';

describe('simplifySchemas', () => {
  it('turns a nullable anyOf into a type list, keeping the outer keywords', () => {
    const input = {
      properties: {
        at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }], description: 'when' },
        env: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] },
      },
    };
    expect(simplifySchemas(input)).toEqual({
      properties: {
        at: { type: ['string', 'null'], format: 'date-time', description: 'when' },
        env: { type: ['string', 'null'], enum: ['a', 'b', null] },
      },
    });
  });

  it('leaves unions it cannot flatten alone', () => {
    const refOrNull = { anyOf: [{ $ref: '#/components/schemas/User' }, { type: 'null' }] };
    const twoTypes = { anyOf: [{ type: 'string' }, { type: 'number' }] };
    expect(simplifySchemas(refOrNull)).toEqual(refOrNull);
    expect(simplifySchemas(twoTypes)).toEqual(twoTypes);
  });

  it('drops string propertyNames, which every JSON object satisfies', () => {
    expect(simplifySchemas({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} })).toEqual({
      type: 'object',
      additionalProperties: true,
    });
  });

  it('does not change its input', () => {
    const input = { anyOf: [{ type: 'string' }, { type: 'null' }] };
    simplifySchemas(input);
    expect(input).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
  });
});
