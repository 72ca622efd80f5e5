import { Table, type TableThProps } from '@mantine/core';

/** The header of a table's buttons column: named for screen readers, empty to the eye. */
export function ActionsHeader(props: TableThProps) {
  return (
    <Table.Th {...props}>
      <span className="visually-hidden">Actions</span>
    </Table.Th>
  );
}
