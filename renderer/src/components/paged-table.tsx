import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { CursorPager } from './cursor-pager';
import { QueryStatus } from './error-alert';

interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/**
 * One page of a cursor-paged list as a table: loading and failure, what to do when it is empty, the rows, and the
 * newer / older buttons over the address's `?cursors=`.
 */
export function PagedTable<T>({
  label,
  query,
  columns,
  row,
  empty,
  minWidth = 820,
}: {
  /** Names the table and its messages: "Errors", "Connections". */
  label: string;
  query: { data: Page<T> | undefined; isPending: boolean; error: unknown };
  columns: string[];
  row(item: T): ReactNode;
  empty: ReactNode;
  minWidth?: number;
}) {
  const items = query.data?.data;
  const lower = label.toLowerCase();
  return (
    <>
      <QueryStatus query={query} loading={`Loading ${lower}`} failed={`The ${lower} could not be loaded`} />
      {items?.length === 0 ? empty : null}
      {items?.length ? (
        <Table.ScrollContainer minWidth={minWidth}>
          <Table aria-label={label} striped>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <Table.Th key={column}>{column}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>{items.map(row)}</Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <CursorPager nextCursor={query.data?.nextCursor} newer={`Newer ${lower}`} older={`Older ${lower}`} />
    </>
  );
}
