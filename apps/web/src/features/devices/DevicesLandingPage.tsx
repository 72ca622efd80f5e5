import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { Link } from '../../router/router';
import { formatDateTime } from '../../app/format/date-format';
import { shortId } from '../../app/format/entity-label';
import { DeviceStatusIcon } from './DeviceStatusIcon';
import { useRecentDevicesNow } from './recent/useRecentDevicesNow';
import { DeviceSearchBox } from './search/DeviceSearchBox';
import { PageTitle } from '../../app/a11y/PageTitle';

/** /devices: the search box and the recently opened devices. */
export function DevicesLandingPage() {
  const devices = useRecentDevicesNow();
  return (
    <Stack>
      <Group justify="space-between">
        <PageTitle title="Devices" size="h2" />
        <Group gap="xs">
          <Button component={Link} to="/devices/search" variant="default" leftSection={<IconSearch size={16} />}>
            Find devices
          </Button>
          <Button component={Link} to="/devices/new" leftSection={<IconPlus size={16} />}>
            Create new device
          </Button>
        </Group>
      </Group>
      <DeviceSearchBox />
      <Title order={2} size="h4">
        Recent devices
      </Title>
      {devices.length ? (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} data-testid="recent-devices">
          {devices.map((d) => (
            <Card key={d.id} withBorder radius="md" padding="sm">
              <Group gap="xs" wrap="nowrap">
                <DeviceStatusIcon online={d.online} installed={d.installed} size={18} />
                <Anchor component={Link} to={`/devices/${d.id}`} fw={600} truncate>
                  {d.name}
                </Anchor>
                <Text size="xs" c="dimmed" ff="monospace" ml="auto">
                  {shortId(d.id)}
                </Text>
              </Group>
              <Text size="xs" c="dimmed" mt={4}>
                {d.installed ? '' : 'Agent not installed · '}Last opened {formatDateTime(new Date(d.lastAccessed))}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      ) : (
        <Text c="dimmed">Devices you open appear here.</Text>
      )}
    </Stack>
  );
}
