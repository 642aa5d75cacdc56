// `switchboard/testing`: a Switchboard server for your app's test suite (docs/testing-your-app.md). Built into
// dist/testing.mjs and dist/testing.cjs by build/bundle-testing.mjs, its types into dist/types/.
export type { ChatClient, ConsoleClient, Environment, ServerClient } from '../sdk/index.js';
export { SwitchboardError } from '../sdk/index.js';
export { SeedError, type SeededProject } from '../server/index.js';
export type { ReplayDifference } from './replay/differences.js';
export { type ReplayOptions, type ReplayResult, type ReplayTargetOptions, replay } from './replay/replay.js';
export { formatReplay } from './replay/report.js';
export type { Pace as ReplayPace } from './replay/target.js';
export {
  type ChatClientRequest,
  type DefaultSeed,
  type ProjectNameOf,
  startTestServer,
  type TestClients,
  type TestSeed,
  type TestServer,
  type TestServerOptions,
} from './start-test-server.js';
