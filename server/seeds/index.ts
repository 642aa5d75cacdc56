export { applySeed, type SeedOutcome, secretPaths } from './apply.js';
export { SeedError } from './errors.js';
export { parseSeed, stripComments } from './parse.js';
export { type Seed, seedJsonSchema, seedSchema } from './schema.js';
