import { Badge } from '@mantine/core';
import type { LiveStream } from '../sdk';

const COLORS: Record<LiveStream['status'], string> = { CREATED: 'gray', LIVE: 'red', ENDED: 'dark' };

/** CREATED / LIVE / ENDED, as a badge: red while on air, as broadcast consoles mark it. */
export function StreamStatus({ status }: { status: LiveStream['status'] }) {
  return (
    <Badge color={COLORS[status]} variant={status === 'LIVE' ? 'filled' : 'light'}>
      {status}
    </Badge>
  );
}
