/** A mistake in how the command was called (a flag, an argument, a missing value): exit code 2. */
export class UsageError extends Error {}

/** A failure of the command itself that is not an API error (not signed in, an unreadable file): exit code 1. */
export class CommandError extends Error {}
