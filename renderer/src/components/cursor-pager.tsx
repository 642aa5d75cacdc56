import { Button, Group, Text } from '@mantine/core';

/**
 * Newer / older buttons of a cursor-paged table. `cursors` are the cursors of the pages walked through, oldest
 * first (kept in the URL): the last one is the page shown, none is the first page.
 */
export function CursorPager({
  cursors,
  nextCursor,
  onChange,
  newer = 'Newer',
  older = 'Older',
}: {
  cursors: string[];
  nextCursor: string | null | undefined;
  onChange(cursors: string[]): void;
  newer?: string;
  older?: string;
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
