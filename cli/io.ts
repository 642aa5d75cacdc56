/** What a command may touch of the process it runs in, passed in rather than read from globals. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export const processIo = (): CliIo => ({
  env: process.env,
  platform: process.platform,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
