import type * as z from 'zod';
import { findNul, NUL_IN_KEY, NUL_REFUSED, showNul } from '../http/text-rules.js';
import { issueText, parseClientInput } from '../shared/issue-messages.js';
import { SeedError } from './errors.js';
import { type Seed, seedSchema } from './schema.js';

/**
 * Seed files are JSON with `//` and `/* … *\/` comments (what `seed init` writes). Comments become
 * spaces, so positions in JSON.parse's errors stay true.
 */
export function stripComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const start = i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      out += text.slice(start, ++i);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') {
        out += ' ';
        i++;
      }
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** `['projects', 0, 'apiKeys', 1, 'key']` → `projects[0].apiKeys[1].key`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  return (
    path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i ? '.' : ''}${String(part)}`)).join('') ||
    '(the file)'
  );
}

const describeIssue = (issue: z.core.$ZodIssue) => `  ${jsonPath(issue.path)}: ${issueText(issue)}`;

/** The seed in `text` (from `source`, for messages), or a SeedError naming every bad field by its path. */
export function parseSeed(text: string, source: string): Seed {
  let value: unknown;
  try {
    value = JSON.parse(stripComments(text));
  } catch (err) {
    const at = /position (\d+)/.exec((err as Error).message);
    const line = at ? text.slice(0, Number(at[1])).split('\n').length : undefined;
    throw new SeedError(`${source} is not JSON${line ? ` (line ${line})` : ''}: ${(err as Error).message}`);
  }
  // The API's rule on text (server/http/text-rules.ts): a seed creates what the API would.
  const nul = findNul(value);
  if (nul) {
    const what = nul.inKey ? NUL_IN_KEY : NUL_REFUSED;
    throw new SeedError(
      `${source} is not a valid seed; nothing was created:\n  ${showNul(jsonPath(nul.path))}: ${what}`,
    );
  }
  const parsed = parseClientInput(seedSchema, value);
  if (!parsed.success)
    throw new SeedError(
      `${source} is not a valid seed; nothing was created:\n${parsed.error.issues.map(describeIssue).join('\n')}`,
    );
  return parsed.data;
}
