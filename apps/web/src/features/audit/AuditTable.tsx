import { auditKindLabels, type AuditEntry } from '@fleetlink/contract';
import { Badge, Stack, Table, Text } from '@mantine/core';
import { formatDateTime } from '../../app/format/date-format';
import { describeDetails } from './audit-details';
import { TableScroller } from '../../app/tables/TableScroller';

function Target({ entry }: { entry: AuditEntry }) {
  const { device, organization } = entry;
  if (!device && !organization) return <Text c="dimmed">-</Text>;
  return (
    <Stack gap={0}>
      {device ? <Text style={{ overflowWrap: 'anywhere' }}>{device.name ?? device.id}</Text> : null}
      {organization ? (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {organization.name ?? organization.id}
        </Text>
      ) : null}
    </Stack>
  );
}

function Outcome({ entry }: { entry: AuditEntry }) {
  if (entry.outcome === 'ok') return <Badge color="teal" variant="light">OK</Badge>;
  return (
    <Stack gap={4} align="flex-start">
      <Badge color="red" variant="light">
        Failed
      </Badge>
      <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }}>
        {entry.error}
      </Text>
    </Stack>
  );
}

/** Entries newest first; everything a device or a person typed is rendered as text. */
export function AuditTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <TableScroller label="Audit entries" minWidth={900}>
      <Table verticalSpacing="xs" striped aria-label="Audit entries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={170}>Time</Table.Th>
            <Table.Th>Who</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Device / organization</Table.Th>
            <Table.Th>Details</Table.Th>
            <Table.Th w={200}>Outcome</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => (
            <Table.Tr key={e.id} data-testid="audit-row">
              <Table.Td>
                <Text size="sm" title={e.time}>
                  {formatDateTime(new Date(e.time))}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {e.username ?? 'Device agent'}
                </Text>
                {e.clientAddress ? (
                  <Text size="xs" c="dimmed">
                    {e.clientAddress}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{auditKindLabels[e.kind]}</Text>
              </Table.Td>
              <Table.Td>
                <Target entry={e} />
              </Table.Td>
              <Table.Td>
                {describeDetails(e).map((line, i) => (
                  <Text key={i} size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {line}
                  </Text>
                ))}
              </Table.Td>
              <Table.Td>
                <Outcome entry={e} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroller>
  );
}
