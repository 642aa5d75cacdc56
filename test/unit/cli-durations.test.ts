import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { durationMs } from '../../cli/arguments.js';
import { parseDuration as clockDuration } from '../../cli/commands/clock.js';

describe('durations on the command line', () => {
  it.each([
    ['90s', 90_000],
    ['500ms', 500],
    ['15m', 900_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    ['1h30m', 5_400_000],
    ['1m30s250ms', 90_250],
    [' 2s ', 2000],
  ])('reads %s', (text, ms) => {
    expect(durationMs(text)).toBe(ms);
  });

  it.each(['', '2 hours', '1.5h', '30m2h', 'h', '-1s', '10'])('refuses %j without a unit for bare numbers', (text) => {
    expect(durationMs(text)).toBeUndefined();
  });

  it('reads a bare number in the unit a command gives', () => {
    expect(durationMs('250', 'ms')).toBe(250);
    expect(durationMs('30', 's')).toBe(30_000);
  });

  it('gives the test clock whole seconds from 1 s to 400 days', () => {
    expect(clockDuration('1h30m')).toBe(5400);
    expect(clockDuration('2000ms')).toBe(2);
    for (const refused of ['1500ms', '0s', '401d', 'soon'])
      expect(() => clockDuration(refused), refused).toThrow(InvalidArgumentError);
  });
});
