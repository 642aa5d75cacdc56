import { createRequire } from 'node:module';
import { Ajv } from 'ajv';

const require = createRequire(import.meta.url);
const harSchema: Record<string, object> = require('har-schema');

/** har-schema's documents are draft-06, which Ajv 8 reads once its meta-schema is added. */
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
for (const schema of Object.values(harSchema)) ajv.addSchema(schema);
const validateHar = ajv.getSchema('har.json#');

/** The HAR 1.2 schema's complaints about `document`, or none when it is valid. */
export function harErrors(document: unknown): string[] {
  if (!validateHar) throw new Error('har-schema: no har.json');
  return validateHar(document) ? [] : (validateHar.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
