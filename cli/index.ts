#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { readVersion } from '../server/version.js';
import { UsageError } from './config.js';
import { registerServeCommand } from './serve.js';

const program = new Command()
  .name('switchboard')
  .description('Switchboard: a local and self-hosted backend for real-time apps')
  .version(readVersion())
  .exitOverride();

registerServeCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // --help and --version exit 0; every other parse problem is a usage error.
    process.exitCode = err.exitCode === 0 ? 0 : 2;
  } else if (err instanceof UsageError) {
    console.error(`error: ${err.message}`);
    process.exitCode = 2;
  } else {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  }
}
