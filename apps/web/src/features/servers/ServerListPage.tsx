import { serverLoadText, type Server } from '@fleetlink/contract';
import { Anchor, Badge, Button, Card, Group, Loader, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import { Link } from '../../router/router';
import { formatSince } from '../../app/format/date-format';
import { shortId } from '../../app/format/entity-label';
import { ServerStatusIcon } from './ServerStatusIcon';
import { useReloadServers, useServers } from './server-api';
import { PageTitle } from '../../app/a11y/PageTitle';

export const RELOAD_QUESTION = 'are you sure you want to recreate message servers connections?';

/**
 * What this console knows of its connection to a message server now, or of a tunnel proxy's calls
 * (issue 67), beside the status an administrator set.
 */
export function connectionText(server: Pick<Server, 'type' | 'connection'>): { text: string; color: string } {
  const { connection } = server;
  if (!connection && server.type === 'PROXY') return { text: 'Not heard from yet: start fleetlink-proxy with this server\'s id and password.', color: 'dimmed' };
  if (!connection) return { text: 'Not connected yet: Reload message servers connects this console to it.', color: 'dimmed' };
  const since = formatSince(new Date(connection.since));
  if (connection.state === 'CONNECTED') return { text: `Connected since ${since}`, color: 'green' };
  if (connection.state === 'CONNECTING') return { text: 'Connecting…', color: 'dimmed' };
  return { text: `Unreachable since ${since}: ${connection.error ?? 'no answer'}`, color: 'red' };
}

function ServerCard({ server }: { server: Server }) {
  const connection = connectionText(server);
  return (
    <Card withBorder padding="md" data-testid="server-card">
      {/* Wraps: a long organization name beside the badges stays on the card on a phone (issue 59). */}
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="nowrap">
          <ServerStatusIcon status={server.status} />
          <Badge variant="light">{server.type}</Badge>
          <Text ff="monospace" title={server.id}>
            {shortId(server.id)}
          </Text>
        </Group>
        {server.builtIn ? <Badge color="blue">Built-in</Badge> : null}
        {server.organization ? <Badge color="gray">{server.organization.name}</Badge> : null}
      </Group>
      <Text mt="sm" style={{ wordBreak: 'break-all' }}>
        {server.url}
      </Text>
      <Text c="dimmed" size="sm">
        {serverLoadText(server)}
      </Text>
      <Text size="sm" c={connection.color} data-testid="server-connection">
        {connection.text}
      </Text>
      <Group justify="flex-end" mt="sm">
        <Anchor component={Link} to={`/servers/${server.id}`}>
          Edit server
        </Anchor>
      </Group>
    </Card>
  );
}

/** /servers (ADMIN): one card per server, register, edit, reload the hub's connections. */
export function ServerListPage() {
  const { data, isPending } = useServers();
  const reload = useReloadServers();
  const [confirming, { open, close }] = useDisclosure(false);
  return (
    <Stack>
      <Group justify="space-between">
        <PageTitle title="Servers" size="h2" />
        <Group>
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={open} loading={reload.isPending}>
            Reload message servers
          </Button>
          <Button component={Link} to="/servers/new" leftSection={<IconPlus size={16} />}>
            Register new server
          </Button>
        </Group>
      </Group>
      {isPending ? (
        <Loader />
      ) : data?.length ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {data.map((s) => (
            <ServerCard key={s.id} server={s} />
          ))}
        </SimpleGrid>
      ) : (
        <Text c="dimmed">No servers are registered.</Text>
      )}
      <Modal opened={confirming} onClose={close} title="Reload message servers" centered>
        <Text>{RELOAD_QUESTION}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={close}>
            No
          </Button>
          <Button
            onClick={() => {
              close();
              reload.mutate();
            }}
          >
            Yes
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
