type Json = { [key: string]: unknown };

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Names of the component schemas that `node` refers to, directly or through other components. */
function referencedComponents(node: unknown, components: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) referencedComponents(item, components, found);
  } else if (isObject(node)) {
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      if (!found.has(name)) {
        found.add(name);
        referencedComponents(components[name], components, found);
      }
    }
    for (const value of Object.values(node)) referencedComponents(value, components, found);
  }
  return found;
}

/** `default: X` becomes "Default: `X`." in the description, everywhere inside `node`. */
function describeDefaults(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(describeDefaults);
  if (!isObject(node)) return node;
  const copy: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, describeDefaults(v)]));
  if (!('default' in copy)) return copy;
  const { default: value, ...rest } = copy;
  const said = `Default: \`${JSON.stringify(value)}\`.`;
  return { ...rest, description: typeof rest.description === 'string' ? `${rest.description} ${said}` : said };
}

/**
 * Request bodies say their defaults in words rather than with `default`: generated clients (openapi-typescript by
 * default) read a property with a default as always present, which is true of a response and false of a request,
 * where the caller may leave it out (a conversation member's `role`). Component schemas that a response also uses
 * keep theirs. Returns a new document.
 */
export function describeRequestDefaults<T extends object>(input: T): T {
  const document = input as Json;
  const components = (
    isObject(document.components) && isObject(document.components.schemas) ? document.components.schemas : {}
  ) as Json;
  const operations = (section: unknown): Json[] =>
    (isObject(section) ? Object.values(section) : [])
      .filter(isObject)
      .flatMap((item) => Object.values(item).filter(isObject));
  // What the server sends: its answers, and the webhook deliveries it POSTs.
  const usedByResponses = referencedComponents(
    [...operations(document.paths).map((operation) => operation.responses), ...operations(document.webhooks)],
    components,
  );
  const requestBodies = operations(document.paths).map((operation) => operation.requestBody);
  const inputOnly = [...referencedComponents(requestBodies, components)].filter((name) => !usedByResponses.has(name));
  const schemas = { ...components };
  for (const name of inputOnly) schemas[name] = describeDefaults(components[name]);
  const paths = Object.fromEntries(
    Object.entries(isObject(document.paths) ? document.paths : {}).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item as Json).map(([method, operation]) => [
          method,
          isObject(operation) && operation.requestBody
            ? { ...operation, requestBody: describeDefaults(operation.requestBody) }
            : operation,
        ]),
      ),
    ]),
  );
  return { ...document, paths, components: { ...(document.components as Json), schemas } } as T;
}
