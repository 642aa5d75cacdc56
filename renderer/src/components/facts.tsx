import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/** A record's fields as a two-column table: the label as a row header, so screen readers read them in pairs. */
export function Facts({ label, rows }: { label: string; rows: [string, ReactNode][] }) {
  return (
    <Table withRowBorders variant="vertical" layout="fixed" aria-label={label} maw={760}>
      <Table.Tbody>
        {rows.map(([name, value]) => (
          <Table.Tr key={name}>
            <Table.Th scope="row" w={200}>
              {name}
            </Table.Th>
            <Table.Td style={{ wordBreak: 'break-word' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
