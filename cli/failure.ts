import { CommanderError } from 'commander';
import { SwitchboardError } from '../sdk/index.js';
import { UsageError } from './errors.js';
import type { CliIo } from './io.js';

/**
 * Reports why a command failed, on stderr, and gives its exit code: 2 for a usage error (commander
 * has printed its own message), 1 for an API error (`error: CODE: message (request id)`) or any
 * other failure. `--help` and `--version` also end here, with 0.
 */
export function reportFailure(err: unknown, io: CliIo): number {
  if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
  const say = (text: string) => io.stderr.write(`error: ${text}\n`);
  if (err instanceof UsageError) {
    say(err.message);
    return 2;
  }
  if (err instanceof SwitchboardError) {
    say(`${err.code}: ${err.message}${err.requestId ? ` (request ${err.requestId})` : ''}`);
    return 1;
  }
  say(err instanceof Error ? err.message : String(err));
  return 1;
}
