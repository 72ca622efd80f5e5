import { monitorTypeLabel, type Monitor } from '@fleetlink/contract';
import { ActionIcon, Badge, Card, Group, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { Link } from '../../../router/router';
import { NewItemCard } from '../../../app/cards/NewItemCard';
import { ConfirmModal } from '../../../app/forms/ConfirmModal';
import { formatDateTime } from '../../../app/format/date-format';
import { useCurrentDevice } from '../detail/current-device';
import { MonitorValue } from './MonitorValue';
import { useDeleteMonitor } from './monitors-api';

/** /devices/{id}/monitor: a card per monitor, and the 'Monitor new item' card for those who may add one (SPEC §2). */
export function DeviceMonitorsPage() {
  const device = useCurrentDevice();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
      {device.monitors.map((m) => (
        <MonitorCard key={m.id} deviceId={device.id} monitor={m} online={device.online} canManage={device.canManage} />
      ))}
      {device.canManage ? (
        <NewItemCard to={`/devices/${device.id}/monitor/new`} label="Monitor new item" />
      ) : null}
      {!device.monitors.length && !device.canManage ? (
        <Text c="dimmed">This device has no monitors.</Text>
      ) : null}
    </SimpleGrid>
  );
}

function MonitorCard({ deviceId, monitor: m, online, canManage }: { deviceId: string; monitor: Monitor; online: boolean; canManage: boolean }) {
  const [asking, { open, close }] = useDisclosure(false);
  const remove = useDeleteMonitor(deviceId);
  return (
    <Card withBorder radius="md" padding="md" data-testid="monitor-card">
      <Stack gap={6}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Text fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {m.name}
          </Text>
          <Badge variant="light" tt="none" ml="auto" style={{ flexShrink: 0 }}>
            {monitorTypeLabel[m.type]}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {m.path}
        </Text>
        <MonitorValue monitor={m} size="lg" />
        {!online && m.observedAt ? (
          <Text size="xs" c="dimmed">
            Last seen {formatDateTime(new Date(m.observedAt))}
          </Text>
        ) : null}
        {canManage ? (
          <Group gap={4} justify="flex-end">
            <Tooltip label="Edit">
              <ActionIcon component={Link} to={`/devices/${deviceId}/monitor/${m.id}`} variant="subtle" aria-label={`Edit monitor ${m.name}`}>
                <IconPencil size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Remove">
              <ActionIcon variant="subtle" color="red" onClick={open} aria-label={`Remove monitor ${m.name}`}>
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        ) : null}
      </Stack>
      <ConfirmModal
        opened={asking}
        question={`Delete monitor ${m.name}?`}
        pending={remove.isPending}
        onClose={close}
        onConfirm={() => remove.mutate(m.id, { onSettled: close })}
      />
    </Card>
  );
}
