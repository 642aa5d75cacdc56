import * as z from 'zod';
import { ERROR_CODES, type ErrorCode } from '../error-codes.js';

// Schemas a server can do without before its first API answer are `z.lazy(() => …)`, built when first read: what
// routes, sockets and webhooks send (which only the OpenAPI document, the SDK's types and the tests read), this
// module's included; request bodies and socket messages (at the first request or message that has one); routes'
// queries (at the route's first request, see `queryOf`) and the small parts they share. A server built ≈1,800 zod
// objects before that answer; now ≈200, nearly all of them these lazies' own wrappers. A shared part stays plain, or
// becomes a getter (`limitSchema()`), where a lazy would change the API document: a query parameter's description is
// read off its field's own schema, and a lazy given `.meta()` where it is used orders that schema's keys differently.

export const timestampSchema = z.iso.datetime().meta({ description: 'ISO 8601 UTC timestamp with milliseconds.' });

export const errorSchema = z.lazy(() =>
  z
    .object({
      code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]).meta({
        example: 'SERVICE_VALIDATION_FAILED',
        description: 'Machine-readable, prefixed SERVICE_; the full list is in the API’s error catalogue.',
      }),
      message: z.string().meta({ description: 'Human-readable; says which field and why for invalid input.' }),
      requestId: z
        .string()
        .meta({ example: 'req_01JD3K5V8Q3N4M2X6Y7Z8A9B0C', description: 'Also in the X-Request-Id header.' }),
      fields: z
        .array(
          z.object({
            path: z
              .string()
              .meta({ example: 'members.0.role', description: 'Dot-separated; empty for the whole body.' }),
            message: z.string(),
          }),
        )
        .optional()
        .meta({ description: 'On `SERVICE_VALIDATION_FAILED` about a body or query: each field at fault and why.' }),
    })
    .meta({ id: 'Error' }),
);

/** A list answer: `{data}`, and `nextCursor` where the list pages. */
export const listOf = <T extends z.ZodType>(item: T) => z.lazy(() => z.object({ data: z.array(item) }));
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.lazy(() =>
    z.object({
      data: z.array(item),
      nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null at the end.' }),
    }),
  );

/** Ids are validated loosely (any printable token): an unknown id is a 404, not a 400. */
export const nameSchema = (what: string) =>
  z.string().trim().min(1, `${what} must not be empty`).max(100, `${what} must be at most 100 characters`);
