import { Badge, Tooltip } from '@mantine/core';
import { type LiveStatus, useLiveStatus } from '../api/live-events';

const SHOWN: Record<LiveStatus, { label: string; color: string; tip: string }> = {
  live: { label: 'Live', color: 'green', tip: 'This page updates itself as things happen.' },
  connecting: { label: 'Connecting', color: 'gray', tip: 'Opening the live event stream.' },
  reconnecting: {
    label: 'Reconnecting',
    color: 'yellow',
    tip: 'The live event stream dropped; the page refreshes when it is back.',
  },
  off: { label: 'Not live', color: 'gray', tip: 'Your role does not receive live updates: reload to refresh.' },
};

/** Whether the page on screen is updating itself. */
export function LiveBadge() {
  const shown = SHOWN[useLiveStatus()];
  return (
    <Tooltip label={shown.tip}>
      <Badge color={shown.color} variant="dot" role="status" aria-label={`Live updates: ${shown.label}`}>
        {shown.label}
      </Badge>
    </Tooltip>
  );
}
