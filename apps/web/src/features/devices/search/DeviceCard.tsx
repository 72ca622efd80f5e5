import type { DeviceListItem } from '@fleetlink/contract';
import { Anchor, Badge, Card, Group, Stack, Text } from '@mantine/core';
import { Link } from '../../../router/router';
import { formatDateTime } from '../../../app/format/date-format';
import { shortId } from '../../../app/format/entity-label';
import { DeviceStatusIcon } from '../DeviceStatusIcon';

export const lastResponseText = (d: Pick<DeviceListItem, 'lastResponse'>) =>
  d.lastResponse ? formatDateTime(new Date(d.lastResponse)) : 'Never';

/** Grid card (SPEC §2): status, name, short id, description, OS name, addresses, last response, More info. */
export function DeviceCard({ device: d }: { device: DeviceListItem }) {
  const os = d.properties?.['os.name'];
  return (
    <Card withBorder padding="md" radius="md" data-testid="device-card">
      <Stack gap={6} h="100%">
        <Group gap="xs" wrap="nowrap">
          <DeviceStatusIcon online={d.online} installed={d.properties !== null} />
          <Text fw={600} truncate>
            {d.name}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace" ml="auto">
            {shortId(d.id)}
          </Text>
        </Group>
        {d.description ? (
          <Text size="sm" c="dimmed" lineClamp={2} style={{ whiteSpace: 'pre-line' }}>
            {d.description}
          </Text>
        ) : null}
        {os ? <Text size="sm">{os}</Text> : null}
        {d.addresses.length ? (
          <Group gap={4}>
            {d.addresses.map((a) => (
              <Badge key={`${a.type}-${a.ip}`} variant="light" color={a.type === 'PUBLIC' ? 'blue' : 'gray'} tt="none">
                {a.ip}
              </Badge>
            ))}
          </Group>
        ) : null}
        <Text size="xs" c="dimmed" mt="auto">
          Last response: {lastResponseText(d)}
        </Text>
        <Anchor component={Link} to={`/devices/${d.id}`} size="sm">
          More info
        </Anchor>
      </Stack>
    </Card>
  );
}
