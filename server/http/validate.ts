import type * as z from 'zod';
import { type FieldProblem, validationFailed } from '../errors.js';

function describeIssue(issue: z.core.$ZodIssue, where: string): string {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const fields = issue.keys.map((k) => (path ? `${path}.${k}` : k));
    return `unknown ${where} field${fields.length > 1 ? 's' : ''} ${fields.map((f) => `"${f}"`).join(', ')}`;
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${path || where}: required`;
  return `${path || where}: ${issue.message}`;
}

/** The same issue for a program: one entry per field at fault (the path is empty for the whole body or query). */
function fieldProblems(issue: z.core.$ZodIssue): FieldProblem[] {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ path: path ? `${path}.${key}` : key, message: 'unknown field' }));
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return [{ path, message: 'required' }];
  return [{ path, message: issue.message }];
}

/**
 * Parses `input` or throws 400 SERVICE_VALIDATION_FAILED naming every field at fault and why, in the message for
 * people and in `fields` for programs.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, where: 'body' | 'query'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => describeIssue(issue, where));
  throw validationFailed(
    `Invalid request ${where}: ${problems.join('; ')}.`,
    result.error.issues.flatMap(fieldProblems),
  );
}
