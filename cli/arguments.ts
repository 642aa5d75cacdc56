import { InvalidArgumentError, Option } from 'commander';
import type { Environment, ProjectRole } from '../sdk/index.js';
import { ENVIRONMENT_SEGMENTS, ENVIRONMENTS, parseEnvironmentAlias } from '../server/environment-names.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../server/shared/page-size.js';

/*
 * Parsers of option and argument values. Commander reports what they refuse as a usage error
 * (exit code 2), naming the option and the accepted values.
 */

const ACCEPTED_ENVIRONMENTS = ENVIRONMENTS.map((env) => `${env} (${ENVIRONMENT_SEGMENTS[env]})`).join(', ');

/** The canonical names and their aliases, in any letter case (spec 2.1); anything else is refused, never defaulted. */
export function parseEnvironment(value: string): Environment {
  const environment = parseEnvironmentAlias(value);
  if (!environment) throw new InvalidArgumentError(`Accepted values: ${ACCEPTED_ENVIRONMENTS}, in any letter case.`);
  return environment;
}

/** `--environment`, described as `what` (say what happens when it is omitted), with the accepted values. */
export const environmentOption = (what: string) =>
  new Option('--environment <env>', `${what}; one of ${ACCEPTED_ENVIRONMENTS}`).argParser(parseEnvironment);

export const projectOption = () =>
  new Option('--project <id>', 'the project (default: the one chosen with `switchboard projects use`)');

/**
 * Every role once, written out so that checking an argument does not load the database layer
 * (where the server's list lives); `satisfies` makes the compiler refuse a missing or unknown role.
 */
const ROLE_NAMES = { OWNER: true, ADMIN: true, DEVELOPER: true, VIEWER: true, BILLING: true } satisfies Record<
  ProjectRole,
  true
>;
const ROLES = Object.keys(ROLE_NAMES) as ProjectRole[];

/** A role in any letter case. */
export function parseRole(value: string): ProjectRole {
  const role = ROLES.find((r) => r === value.toUpperCase());
  if (!role) throw new InvalidArgumentError(`Accepted values: ${ROLES.join(', ')}.`);
  return role;
}

/** A commander parser for a whole number from 1 to `max`. */
export const wholeNumberUpTo =
  (max: number) =>
  (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || n > max)
      throw new InvalidArgumentError(`Give a whole number from 1 to ${max}.`);
    return n;
  };

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const;
const DURATION = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;

/**
 * `90s`, `500ms`, `15m`, `2h`, `1d`, `1h30m`: whole numbers with a unit each, largest first, each unit once; with
 * `bareUnit`, a bare number too, in that unit. Answers milliseconds, or undefined for anything else (`2 hours`,
 * `1.5h`, `30m2h`, an empty text), which the command's parser turns into its usage error.
 */
export function durationMs(value: string, bareUnit?: keyof typeof UNIT_MS): number | undefined {
  const text = value.trim();
  if (bareUnit && /^\d+$/.test(text)) return Number(text) * UNIT_MS[bareUnit];
  const match = DURATION.exec(text);
  if (!text || !match) return undefined;
  const [d, h, m, s, ms] = match.slice(1).map((n) => Number(n ?? 0));
  return d * UNIT_MS.d + h * UNIT_MS.h + m * UNIT_MS.m + s * UNIT_MS.s + ms;
}

const parseLimit = wholeNumberUpTo(MAX_PAGE_SIZE);

/** `--limit` of a command that lists one page of `what`. */
export const limitOption = (what: string) =>
  new Option('--limit <n>', `how many ${what} (1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE})`).argParser(
    parseLimit,
  );

/** `--cursor` of a command that lists one page. */
export const cursorOption = () => new Option('--cursor <cursor>', 'the next page: the nextCursor of the previous one');

/** Event types separated by commas. */
export const parseEvents = (value: string): string[] => {
  const events = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (!events.length)
    throw new InvalidArgumentError('Give event types separated by commas, e.g. message.created,room.created.');
  return events;
};
