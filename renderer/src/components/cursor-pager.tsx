import { Button, Group, Text } from '@mantine/core';

/**
 * Newer and older pages of a list paged with cursors: `cursors` are those of the pages walked through (kept in the
 * URL, oldest first; none is the first page), `nextCursor` the list's answer for the page after this one.
 */
export function CursorPager({
  cursors,
  nextCursor,
  onChange,
  newer,
  older,
}: {
  cursors: string[];
  nextCursor: string | null | undefined;
  onChange(cursors: string[]): void;
  /** The buttons' words, e.g. "Newer entries" and "Older entries". */
  newer: string;
  older: string;
}) {
  return (
    <Group>
      <Button variant="default" disabled={cursors.length === 0} onClick={() => onChange(cursors.slice(0, -1))}>
        {newer}
      </Button>
      <Button
        variant="default"
        disabled={!nextCursor}
        onClick={() => {
          if (nextCursor) onChange([...cursors, nextCursor]);
        }}
      >
        {older}
      </Button>
      <Text size="sm" c="dimmed">
        Page {cursors.length + 1}
      </Text>
    </Group>
  );
}
