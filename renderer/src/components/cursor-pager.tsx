import { Button, Group, Text } from '@mantine/core';

/**
 * Newer / older buttons over a list paged with opaque cursors. `cursors` are the pages walked through, oldest
 * first (kept in the URL by the page): the last one is the page shown, none is the first.
 */
export function CursorPager({
  cursors,
  nextCursor,
  onChange,
  what,
}: {
  cursors: string[];
  nextCursor: string | null | undefined;
  onChange(cursors: string[]): void;
  /** What is listed, plural: "entries", "rooms". */
  what: string;
}) {
  return (
    <Group>
      <Button variant="default" disabled={cursors.length === 0} onClick={() => onChange(cursors.slice(0, -1))}>
        Newer {what}
      </Button>
      <Button
        variant="default"
        disabled={!nextCursor}
        onClick={() => {
          if (nextCursor) onChange([...cursors, nextCursor]);
        }}
      >
        Older {what}
      </Button>
      <Text size="sm" c="dimmed">
        Page {cursors.length + 1}
      </Text>
    </Group>
  );
}
