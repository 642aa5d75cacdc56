import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import type { CliIo } from './io.js';

/** Whether there is a person at a terminal to ask. */
export const canPrompt = (io: CliIo): boolean => io.stdin.isTTY === true;

/**
 * Asks one question on the terminal. With `hidden`, what is typed is not echoed (for passwords):
 * readline writes its echo to an output that drops everything after the question itself.
 */
export async function prompt(io: CliIo, question: string, options: { hidden?: boolean } = {}): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, encoding, done) {
      if (!muted) io.stderr.write(chunk, encoding);
      done();
    },
  });
  const rl = createInterface({ input: io.stdin, output, terminal: true });
  try {
    const answer = rl.question(question);
    muted = options.hidden === true;
    const text = await answer;
    // A password is taken as typed; other answers without stray spaces.
    return options.hidden ? text : text.trim();
  } finally {
    rl.close();
    if (muted) io.stderr.write('\n');
  }
}
