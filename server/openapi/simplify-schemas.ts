type Json = { [key: string]: unknown };

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Rewrites three spellings zod emits into their plainer JSON Schema equivalents, which every OpenAPI
 * tool reads (Scalar's validator rejects the originals):
 * - `{anyOf: [{type: T, …}, {type: 'null'}], …}` → `{type: [T, 'null'], …}` (and `null` joins an enum);
 * - `{propertyNames: {type: 'string'}, additionalProperties: {}}` → `{additionalProperties: true}`,
 *   since JSON object keys are always strings;
 * - an integer's `minimum: -9007199254740991` / `maximum: 9007199254740991` (zod's safe-integer range, which every
 *   `z.int()` carries) → no bound: documentation tools show the bound as the example, e.g. a room with
 *   `participantCount: -9007199254740991`.
 * Same meaning, smaller document. Returns a new value; the input is not changed.
 */
export function simplifySchemas<T>(value: T): T {
  if (Array.isArray(value)) return value.map(simplifySchemas) as T;
  if (!isObject(value)) return value;
  let node: Json = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, simplifySchemas(v)]));

  const branches = node.anyOf;
  if (Array.isArray(branches) && branches.length === 2) {
    const nullIndex = branches.findIndex((b) => isObject(b) && b.type === 'null' && Object.keys(b).length === 1);
    const other = branches[1 - nullIndex];
    if (nullIndex !== -1 && isObject(other) && typeof other.type === 'string' && other.$ref === undefined) {
      const { anyOf: _, ...rest } = node;
      node = { ...other, ...rest, type: [other.type, 'null'] };
      if (Array.isArray(other.enum)) node.enum = [...other.enum, null];
    }
  }

  if (
    isObject(node.propertyNames) &&
    node.propertyNames.type === 'string' &&
    Object.keys(node.propertyNames).length === 1
  ) {
    const { propertyNames: _, ...rest } = node;
    node = rest;
    if (isObject(node.additionalProperties) && Object.keys(node.additionalProperties).length === 0) {
      node.additionalProperties = true;
    }
  }
  if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
  if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  return node as T;
}
