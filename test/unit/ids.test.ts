import { describe, expect, it } from 'vitest';
import { createIdGenerator, randomString } from '../../server/ids.js';
import { manualClock } from '../support/server.js';

describe('ids', () => {
  it('are prefixed and sort in creation order, also within one millisecond', () => {
    const clock = manualClock();
    const ids = createIdGenerator(clock);
    const made: string[] = [];
    for (let i = 0; i < 1000; i++) {
      made.push(ids.next('msg'));
      if (i % 100 === 0) clock.advance(1);
    }
    expect(made.every((id) => /^msg_[0-9A-Z]{26}$/.test(id))).toBe(true);
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
  });

  it('never go backwards when the clock does', () => {
    const clock = manualClock();
    const ids = createIdGenerator(clock);
    const first = ids.next('evt');
    clock.advance(-5000);
    expect(ids.next('evt') > first).toBe(true);
  });

  it('draws random strings from the whole alphabet', () => {
    const text = randomString(10_000, 'ab');
    expect(text).toMatch(/^[ab]+$/);
    const as = text.split('a').length - 1;
    expect(as).toBeGreaterThan(4500);
    expect(as).toBeLessThan(5500);
  });
});
