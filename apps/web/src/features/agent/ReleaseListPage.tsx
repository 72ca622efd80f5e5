import { Badge, Button, Group, Loader, Stack, Table, Text, Tooltip } from '@mantine/core';
import type { ReleaseStanding } from '@fleetlink/contract';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ConfirmButton } from '../../app/forms/ConfirmButton';
import { useDeleteRelease, useReleases } from './release-api';

/** /agent/releases (SPEC §2): table Branch, Version, Bundles, Delete ('Delete release {branch} {version}?'), newest version first. */
export function ReleaseListPage() {
  const releases = useReleases();
  const remove = useDeleteRelease();
  return (
    <Stack>
      <Group justify="flex-end">
        <Button component={Link} to="/agent/releases/new" leftSection={<IconPlus size={16} />}>
          Create a new release
        </Button>
      </Group>
      {releases.isPending ? (
        <Loader />
      ) : releases.data?.length ? (
        <Table striped highlightOnHover data-testid="release-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Branch</Table.Th>
              <Table.Th>Version</Table.Th>
              <Table.Th>Bundles</Table.Th>
              <Table.Th>
                <Tooltip label="Devices that run its agent bundle / update to it / failed and rolled back / still wait for it" withArrow multiline w={260}>
                  <span>Devices</span>
                </Tooltip>
              </Table.Th>
              <Table.Th w={1}>Delete</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {releases.data.map((r) => (
              <Table.Tr key={`${r.branch} ${r.version}`}>
                <Table.Td>{r.branch}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Text ff="monospace" size="sm">
                      {r.version}
                    </Text>
                    {r.builtIn ? (
                      <Tooltip label={r.notes} multiline w={260} withArrow>
                        <Badge variant="light" color="gray" tt="none" data-testid="release-built-in">
                          Built-in
                        </Badge>
                      </Tooltip>
                    ) : null}
                  </Group>
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.bundles.map((b) => `${b.name} ${b.version}`).join(', ')}</Table.Td>
                <Table.Td data-testid="release-devices">{r.devices ? <Standing devices={r.devices} /> : null}</Table.Td>
                <Table.Td>
                  <ConfirmButton
                    variant="subtle"
                    color="red"
                    size="compact-sm"
                    aria-label={`Delete release ${r.branch} ${r.version}`}
                    question={`Delete release ${r.branch} ${r.version}?`}
                    questionTestId="delete-release-question"
                    onConfirm={() => remove.mutateAsync(r)}
                  >
                    <IconTrash size={16} />
                  </ConfirmButton>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">No releases yet.</Text>
      )}
    </Stack>
  );
}

/** Where a release stands on devices (issue 32): the counts that are not zero, each in words. */
function Standing({ devices }: { devices: ReleaseStanding }) {
  const parts = [
    { n: devices.running, label: 'running', color: 'teal' },
    { n: devices.updating, label: 'updating', color: 'blue' },
    { n: devices.failed, label: 'failed', color: 'red' },
    { n: devices.waiting, label: 'waiting', color: 'gray' },
  ].filter((p) => p.n > 0);
  if (!parts.length) return <Text size="sm" c="dimmed">none</Text>;
  return (
    <Group gap={4}>
      {parts.map((p) => (
        <Badge key={p.label} variant="light" color={p.color} tt="none">
          {p.n} {p.label}
        </Badge>
      ))}
    </Group>
  );
}
