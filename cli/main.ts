/** The `switchboard` command: its commands, parsed and run (cli/index.ts loads this). */
import { Command } from 'commander';
import { DEFAULT_BASE_URL } from '../sdk/index.js';
import { readVersion } from '../server/version.js';
import { registerAuditCommand } from './commands/audit.js';
import { registerAuthCommands } from './commands/auth.js';
import { registerClockCommands } from './commands/clock.js';
import { registerDataCommands } from './commands/data.js';
import { registerEnvCommands } from './commands/env.js';
import { registerFaultCommands } from './commands/faults.js';
import { registerKeyCommands } from './commands/keys.js';
import { registerMemberCommands } from './commands/members.js';
import { registerObservabilityCommands } from './commands/observability.js';
import { registerProjectCommands } from './commands/projects.js';
import { registerRecordCommands } from './commands/record.js';
import { registerReplayCommand } from './commands/replay.js';
import { registerRoomCommands } from './commands/rooms.js';
import { registerSecretKeyCommands } from './commands/secret-key.js';
import { registerSnapshotCommands } from './commands/snapshot.js';
import { registerStatusCommand } from './commands/status.js';
import { registerTailCommand } from './commands/tail.js';
import { registerTriggerCommand } from './commands/trigger.js';
import { registerWebhookCommands } from './commands/webhooks.js';
import { reportFailure } from './failure.js';
import { processIo } from './io.js';
import { registerServeCommand } from './serve.js';

const io = processIo();

const program = new Command()
  .name('switchboard')
  .description('Switchboard: a local and self-hosted backend for real-time apps')
  .version(readVersion())
  .option('--url <url>', `the server to talk to (env SWITCHBOARD_URL, default ${DEFAULT_BASE_URL})`)
  .option('--json', 'print the API’s JSON instead of text for people')
  // Set before the commands are added, so that every command inherits it.
  .exitOverride()
  .showHelpAfterError('(run with --help for usage)');

registerServeCommand(program);
registerDataCommands(program, io);
registerAuthCommands(program, io);
registerProjectCommands(program, io);
registerKeyCommands(program, io);
registerMemberCommands(program, io);
registerAuditCommand(program, io);
registerStatusCommand(program, io);
registerSecretKeyCommands(program, io);
registerRoomCommands(program, io);
registerWebhookCommands(program, io);
registerTailCommand(program, io);
registerObservabilityCommands(program, io);
registerEnvCommands(program, io);
registerSnapshotCommands(program, io);
registerClockCommands(program, io);
registerFaultCommands(program, io);
registerRecordCommands(program, io);
registerReplayCommand(program, io);
registerTriggerCommand(program, io);

// A promise chain rather than a top-level await: the single executable runs this file bundled as CommonJS.
program.parseAsync(process.argv).catch((err: unknown) => {
  process.exitCode = reportFailure(err, io);
});
