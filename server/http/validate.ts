import type { z } from 'zod';
import { validationFailed } from '../errors.js';

function describeIssue(issue: z.core.$ZodIssue, where: string): string {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const fields = issue.keys.map((k) => (path ? `${path}.${k}` : k));
    return `unknown ${where} field${fields.length > 1 ? 's' : ''} ${fields.map((f) => `"${f}"`).join(', ')}`;
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${path || where}: required`;
  return `${path || where}: ${issue.message}`;
}

/** Parses `input` or throws 400 SERVICE_VALIDATION_FAILED naming every field at fault and why. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, where: 'body' | 'query'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => describeIssue(issue, where));
  throw validationFailed(`Invalid request ${where}: ${problems.join('; ')}.`);
}
