import { Paper, Text } from '@mantine/core';
import type { AriaRole, ReactNode } from 'react';

/** One labelled figure of a strip of them (diagnostics, usage, the chat overview). */
export function Figure({
  label,
  children,
  role,
  ariaLabel,
}: {
  label: string;
  children: ReactNode;
  /** For a strip read as a list: `listitem`, named by `ariaLabel` ("Messages: 2"). */
  role?: AriaRole;
  ariaLabel?: string;
}) {
  return (
    <Paper withBorder p="sm" role={role} aria-label={ariaLabel}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={600} mt={4}>
        {children}
      </Text>
    </Paper>
  );
}

/** Seconds as a person reads a duration: 42 s, 5 min, 3 h 12 min, 4 days. */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}

/** A byte count in binary units: 512 B, 1.5 KB, 20 MB. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
