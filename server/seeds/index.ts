export { applySeed, type SeededProject, type SeedOutcome, secretPaths } from './apply.js';
export { SeedError } from './errors.js';
export { parseSeed, stripComments } from './parse.js';
export { type Seed, type SeedInput, seedJsonSchema, seedSchema } from './schema.js';
