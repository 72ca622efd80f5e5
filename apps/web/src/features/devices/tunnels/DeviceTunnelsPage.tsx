import { tunnelModeLabel, tunnelTexts, type Tunnel } from '@fleetlink/contract';
import { ActionIcon, Anchor, Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { Link } from '../../../router/router';
import { NewItemCard } from '../../../app/cards/NewItemCard';
import { ConfirmModal } from '../../../app/forms/ConfirmModal';
import { useCurrentDevice } from '../detail/current-device';
import { securitySummary, stateColor, stateLabel } from './tunnel-card-text';
import { useDeleteTunnel, useTunnels, useTunnelSwitch } from './tunnels-api';

/** /devices/{id}/tunnels, the Network tab (SPEC §2): a card per tunnel, and a card that links to a new one. */
export function DeviceTunnelsPage() {
  const device = useCurrentDevice();
  const tunnels = useTunnels(device.id);
  if (tunnels.isPending) return <Loader />;
  const list = tunnels.data ?? [];
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
      {list.map((t) => (
        <TunnelCard key={t.id} deviceId={device.id} tunnel={t} online={device.online} canManage={device.canManage} />
      ))}
      {device.canManage ? (
        <NewItemCard to={`/devices/${device.id}/tunnels/new`} label="Register new tunnel" minHeight={160} />
      ) : null}
      {!list.length && !device.canManage ? <Text c="dimmed">This device has no tunnels.</Text> : null}
    </SimpleGrid>
  );
}

function TunnelCard({ deviceId, tunnel: t, online, canManage }: { deviceId: string; tunnel: Tunnel; online: boolean; canManage: boolean }) {
  const [asking, { open, close }] = useDisclosure(false);
  const remove = useDeleteTunnel(deviceId);
  const toggle = useTunnelSwitch(deviceId);
  const connected = t.status.state === 'CONNECTED';
  const state = (
    <Badge color={stateColor[t.status.state]} variant="light" tt="none" data-testid="tunnel-state">
      {stateLabel[t.status.state]}
    </Badge>
  );
  return (
    <Card withBorder radius="md" padding="md" data-testid="tunnel-card">
      <Stack gap={6}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Text fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {t.name}
          </Text>
          <Group gap={4} ml="auto" wrap="nowrap" style={{ flexShrink: 0 }}>
            {online ? state : <Tooltip label={tunnelTexts.offline}>{state}</Tooltip>}
          </Group>
        </Group>
        <Text size="sm">
          {t.type} · port {t.port}
        </Text>
        <Text size="sm" c="dimmed">
          {tunnelModeLabel[t.mode]}
        </Text>
        {t.type === 'HTTP' ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            Domain: {t.path}.{t.domain}
          </Text>
        ) : null}
        <Text size="sm">Security: {securitySummary(t)}</Text>
        {t.status.mapping ? (
          t.type === 'HTTP' ? (
            <Anchor href={t.status.mapping} target="_blank" rel="noopener noreferrer" size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} data-testid="tunnel-mapping">
              {t.status.mapping}
            </Anchor>
          ) : (
            <Text size="sm" ff="monospace" data-testid="tunnel-mapping">
              {t.status.mapping}
            </Text>
          )
        ) : null}
        {canManage ? (
          <Group gap={4} mt="xs">
            {connected ? (
              <Button size="xs" variant="light" color="red" loading={toggle.isPending} disabled={!online} onClick={() => toggle.mutate({ tunnelId: t.id, on: false })}>
                Disconnect
              </Button>
            ) : (
              <Button size="xs" variant="light" loading={toggle.isPending} disabled={!online} onClick={() => toggle.mutate({ tunnelId: t.id, on: true })}>
                Connect
              </Button>
            )}
            {/* Disabled the way Mantine keeps a tooltip working: the element still gets the pointer. */}
            <Tooltip label={connected ? tunnelTexts.disconnectToEdit : 'Edit'}>
              <ActionIcon
                component={Link}
                to={`/devices/${deviceId}/tunnels/${t.id}`}
                variant="subtle"
                ml="auto"
                data-disabled={connected || undefined}
                aria-disabled={connected}
                onClick={(e) => connected && e.preventDefault()}
                aria-label={`Edit tunnel ${t.name}`}
              >
                <IconPencil size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={connected ? tunnelTexts.disconnectToRemove : 'Remove'}>
              <ActionIcon
                variant="subtle"
                color="red"
                data-disabled={connected || undefined}
                aria-disabled={connected}
                onClick={() => !connected && open()}
                aria-label={`Remove tunnel ${t.name}`}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        ) : null}
      </Stack>
      <ConfirmModal
        opened={asking}
        question={tunnelTexts.deleteQuestion(t.port)}
        pending={remove.isPending}
        onClose={close}
        onConfirm={() => remove.mutate(t.id, { onSettled: close })}
      />
    </Card>
  );
}
