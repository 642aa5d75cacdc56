import { Button, Group, Text } from '@mantine/core';

/**
 * Newer / older pages of a cursor-paged list. `cursors` are those of the pages walked through (kept in the URL),
 * oldest first: the last is the page shown, none is the first page.
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
  if (cursors.length === 0 && !nextCursor) return null;
  return (
    <Group>
      <Button variant="default" disabled={cursors.length === 0} onClick={() => onChange(cursors.slice(0, -1))}>
        {newer}
      </Button>
      <Button variant="default" disabled={!nextCursor} onClick={() => nextCursor && onChange([...cursors, nextCursor])}>
        {older}
      </Button>
      <Text size="sm" c="dimmed">
        Page {cursors.length + 1}
      </Text>
    </Group>
  );
}
