/** "2 days 3 hours", "5 minutes", "40 seconds": how far an environment's clock runs ahead, to the largest units. */
export function describeOffset(ms: number): string {
  const parts: string[] = [];
  let seconds = Math.round(ms / 1000);
  for (const [unit, size] of [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
    ['second', 1],
  ] as const) {
    const count = Math.floor(seconds / size);
    seconds -= count * size;
    if (count > 0 && parts.length < 2) parts.push(`${count} ${unit}${count === 1 ? '' : 's'}`);
  }
  return parts.join(' ') || 'less than a second';
}
