export { DataDirInUseError } from '../db/data-dir-lock.js';
export type { Clock } from './clock.js';
export type { DeploymentMode } from './context.js';
export { type CatalogueEvent, createEventBus, type EventBus } from './events/bus.js';
export {
  applySeed,
  parseSeed,
  type Seed,
  SeedError,
  type SeededProject,
  type SeedInput,
  type SeedOutcome,
  seedSchema,
} from './seeds/index.js';
export { DEFAULT_HOST, DEFAULT_PORT, type RunningServer, type ServerOptions, startServer } from './start-server.js';
