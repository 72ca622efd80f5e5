import type { DeviceListItem } from '@fleetlink/contract';
import { Anchor, Group, Table, Text } from '@mantine/core';
import { Link } from '../../../router/router';
import { shortId } from '../../../app/format/entity-label';
import { DeviceStatusIcon } from '../DeviceStatusIcon';

export const LIST_DESCRIPTION_MAX = 30;

export function truncate(text: string | null, max = LIST_DESCRIPTION_MAX): string {
  if (!text) return '';
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** List rows (SPEC §2): name, short id, description truncated at 30, IPs, link. */
export function DeviceTable({ devices }: { devices: DeviceListItem[] }) {
  return (
    <Table striped highlightOnHover withTableBorder verticalSpacing="xs" data-testid="device-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Id</Table.Th>
          <Table.Th>Description</Table.Th>
          <Table.Th>IP addresses</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {devices.map((d) => (
          <Table.Tr key={d.id}>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <DeviceStatusIcon online={d.online} installed={d.properties !== null} size={16} />
                <Text size="sm">{d.name}</Text>
              </Group>
            </Table.Td>
            <Table.Td>
              <Text size="sm" ff="monospace">
                {shortId(d.id)}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm" c="dimmed" title={d.description ?? undefined}>
                {truncate(d.description)}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{d.addresses.map((a) => a.ip).join(', ')}</Text>
            </Table.Td>
            <Table.Td>
              <Anchor component={Link} to={`/devices/${d.id}`} size="sm">
                Open
              </Anchor>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
