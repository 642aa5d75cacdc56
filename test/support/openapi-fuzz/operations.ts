/**
 * The operations of a served OpenAPI document, as the property test over it (test/db/openapi-fuzz.test.ts) needs
 * them: method and path, the credential schemes, the parameters, the request body's JSON schema; and for each, a
 * valid input to start from, built from the schema's examples, defaults and bounds.
 */

export type JsonSchema = any;

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  /** The credential schemes the route takes (any one of them); none for a public route. */
  schemes: string[];
  pathParams: string[];
  query: { name: string; required: boolean; schema: JsonSchema }[];
  /** A JSON body's schema, `bytes` for a raw upload, undefined without a body. */
  body?: { json: JsonSchema } | { bytes: true };
}

export function operationsOf(doc: any): Operation[] {
  const resolve = (schema: JsonSchema): JsonSchema =>
    schema?.$ref ? resolve(doc.components.schemas[schema.$ref.split('/').pop()]) : schema;
  const deref = (schema: JsonSchema): JsonSchema => {
    const s = resolve(schema);
    if (!s || typeof s !== 'object') return s;
    const out: JsonSchema = { ...s };
    if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, deref(v)]));
    if (s.items) out.items = deref(s.items);
    return out;
  };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<Record<string, JsonSchema>>(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters: JsonSchema[] = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        schemes: [...new Set<string>((op.security ?? []).flatMap((alternative: object) => Object.keys(alternative)))],
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: p.required === true, schema: deref(p.schema) })),
        body: content['application/json']
          ? { json: deref(content['application/json'].schema) }
          : Object.keys(content).length > 0
            ? { bytes: true }
            : undefined,
      });
    }
  }
  return operations;
}

const types = (schema: JsonSchema): string[] =>
  Array.isArray(schema?.type) ? schema.type : schema?.type ? [schema.type] : [];

/** A value the schema accepts, or close to it: its example, default or first choice, else the smallest that fits. */
export function validValue(schema: JsonSchema): unknown {
  if (!schema) return {};
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  const [type] = types(schema).filter((t) => t !== 'null');
  switch (type) {
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((key: string) => [key, validValue(schema.properties?.[key])]),
      );
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => validValue(schema.items));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      if (schema.format === 'email') return 'fuzz@example.test';
      if (schema.format === 'uri') return 'https://hooks.example.test/fuzz';
      if (schema.format === 'date-time') return '2026-01-01T00:00:00.000Z';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

export type FieldPath = (string | number)[];

/**
 * Every field of a body schema, nested ones included (an array's first item), down to `depth` levels; and `fuzz`,
 * a field no schema has.
 */
export function fieldPaths(schema: JsonSchema, depth = 3, at: FieldPath = []): FieldPath[] {
  const paths: FieldPath[] = at.length === 0 ? [['fuzz']] : [];
  if (depth === 0 || !schema) return paths;
  for (const [key, property] of Object.entries<JsonSchema>(schema.properties ?? {})) {
    paths.push([...at, key]);
    paths.push(...fieldPaths(property, depth - 1, [...at, key]));
  }
  if (schema.items && at.length > 0) {
    paths.push([...at, 0]);
    paths.push(...fieldPaths(schema.items, depth - 1, [...at, 0]));
  }
  return paths;
}
