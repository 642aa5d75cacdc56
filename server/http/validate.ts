import type * as z from 'zod';
import { validationFailed } from '../errors.js';
import { describeIssue, fieldProblems, parseClientInput } from '../shared/issue-messages.js';

/**
 * Parses `input` or throws 400 SERVICE_VALIDATION_FAILED naming every field at fault and why, in the message for
 * people and in `fields` for programs.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, where: 'body' | 'query'): z.output<S> {
  const result = parseClientInput(schema, input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => describeIssue(issue, where));
  throw validationFailed(
    `Invalid request ${where}: ${problems.join('; ')}.`,
    result.error.issues.flatMap(fieldProblems),
  );
}
