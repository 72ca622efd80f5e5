import type { AlertRule } from '@fleetlink/contract';
import { Modal, Table, Text } from '@mantine/core';
import { formatDayMonthTime } from '../../app/format/date-format';
import { useDeliveries, type AlertScope } from './alerts-api';
import { TableScroller } from '../../app/tables/TableScroller';

const stateColor = { PENDING: 'yellow', DELIVERED: 'teal', FAILED: 'red' } as const;

/** A rule's delivery log: each event's delivery to its webhook and mail addresses, how it went, and when it is tried again. */
export function DeliveriesModal({ scope, rule, onClose }: { scope: AlertScope; rule: AlertRule; onClose: () => void }) {
  const deliveries = useDeliveries(scope, rule.id);
  const items = deliveries.data?.items ?? [];
  return (
    <Modal opened onClose={onClose} title={`Deliveries of ${rule.name}`} size="80rem">
      {deliveries.data && !items.length ? <Text c="dimmed">Nothing was sent yet.</Text> : null}
      {items.length ? (
        <TableScroller label="Deliveries" minWidth={900}>
          <Table verticalSpacing="xs" aria-label="Deliveries" data-testid="alert-deliveries">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th>Event</Table.Th>
                <Table.Th>To</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Tries</Table.Th>
                <Table.Th>Answer</Table.Th>
                <Table.Th>Latency</Table.Th>
                <Table.Th>Next try</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((d) => (
                <Table.Tr key={d.id} data-testid="alert-delivery">
                  <Table.Td>{formatDayMonthTime(new Date(d.createdAt))}</Table.Td>
                  <Table.Td>{d.summary}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere', minWidth: 180 }}>{d.target}</Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={600} c={stateColor[d.state]}>
                      {d.state.toLowerCase()}
                    </Text>
                  </Table.Td>
                  <Table.Td>{d.attempts}</Table.Td>
                  <Table.Td data-testid="alert-delivery-answer">{d.lastStatus !== null ? String(d.lastStatus) : (d.lastError ?? '')}</Table.Td>
                  <Table.Td>{d.lastLatencyMs !== null ? `${d.lastLatencyMs} ms` : ''}</Table.Td>
                  <Table.Td>{d.nextAttemptAt ? formatDayMonthTime(new Date(d.nextAttemptAt)) : ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroller>
      ) : null}
    </Modal>
  );
}
