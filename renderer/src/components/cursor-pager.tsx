import { Button, Group, Text } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';

/**
 * The cursors of the pages walked through in the page's list (`?cursors=`), oldest first: the last is the page
 * shown, none is the first page. In the address, so that a copied link opens the same page.
 */
export function useCursors(): string[] {
  const search: { cursors?: string[] } = useSearch({ strict: false });
  return search.cursors ?? [];
}

/** Newer / older pages of a cursor-paged list, moving through `?cursors=`; nothing while there is one page. */
export function CursorPager({
  nextCursor,
  newer = 'Newer',
  older = 'Older',
}: {
  nextCursor: string | null | undefined;
  newer?: string;
  older?: string;
}) {
  const cursors = useCursors();
  const navigate = useNavigate();
  const go = (next: string[]) =>
    void navigate({
      to: '.',
      search: (prev: Record<string, unknown>) => ({ ...prev, cursors: next.length > 0 ? next : undefined }),
    });
  if (cursors.length === 0 && !nextCursor) return null;
  return (
    <Group>
      <Button variant="default" disabled={cursors.length === 0} onClick={() => go(cursors.slice(0, -1))}>
        {newer}
      </Button>
      <Button variant="default" disabled={!nextCursor} onClick={() => nextCursor && go([...cursors, nextCursor])}>
        {older}
      </Button>
      <Text size="sm" c="dimmed">
        Page {cursors.length + 1}
      </Text>
    </Group>
  );
}
