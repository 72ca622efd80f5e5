import { serverLoadText, serverUtilization, type Server } from '@fleetlink/contract';
import { Badge, Card, Group, Loader, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ConfirmModal } from '../../app/forms/ConfirmModal';
import { shortId } from '../../app/format/entity-label';
import { ServerStatusIcon } from './ServerStatusIcon';
import { useMigrateDevice, useDeviceServers, useServers } from './server-api';

function AssignedServerCard({ deviceId, server, others }: { deviceId: string; server: Server; others: Server[] }) {
  const migrate = useMigrateDevice(deviceId);
  // Moving reconnects the agent elsewhere: asked first (issue 59), not done on a pick from the list.
  const [target, setTarget] = useState<Server | null>(null);
  return (
    <Card withBorder data-testid="device-server-card">
      <Group gap="xs">
        <ServerStatusIcon status={server.status} />
        <Badge variant="light">{server.type}</Badge>
        <Text ff="monospace">{shortId(server.id)}</Text>
      </Group>
      <Text mt="sm" style={{ wordBreak: 'break-all' }}>
        {server.url}
      </Text>
      <Text size="sm" c="dimmed">
        {serverLoadText(server)}
      </Text>
      <Select
        mt="md"
        label="Migrate to"
        placeholder={others.length ? 'Choose a server' : 'No other server of this type'}
        disabled={!others.length || migrate.isPending}
        data={others.map((o) => ({ value: o.id, label: `${o.url} (${shortId(o.id)}) - ${serverUtilization(o)}%` }))}
        value={null}
        onChange={(to) => setTarget(others.find((o) => o.id === to) ?? null)}
      />
      <ConfirmModal
        opened={target !== null}
        question={target ? `Move this device to ${target.url}?` : ''}
        questionTestId="migrate-question"
        confirmLabel="Move"
        pending={migrate.isPending}
        onClose={() => setTarget(null)}
        onConfirm={() => migrate.mutate({ from: server.id, to: target!.id }, { onSettled: () => setTarget(null) })}
      />
    </Card>
  );
}

/**
 * Device Servers tab (ADMIN): a card per assigned server with a 'Migrate to' list of the other
 * servers of the same type. Mounted by the devices feature at /devices/{id}/servers.
 */
export function DeviceServersPage({ deviceId }: { deviceId: string }) {
  const assigned = useDeviceServers(deviceId);
  const all = useServers();
  if (assigned.isPending || all.isPending) return <Loader />;
  if (!assigned.data?.length) return <Text c="dimmed">This device is not assigned to any server yet: it gets them when its agent enrolls.</Text>;
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {assigned.data.map((s) => (
          <AssignedServerCard key={s.id} deviceId={deviceId} server={s} others={(all.data ?? []).filter((o) => o.type === s.type && o.id !== s.id)} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
