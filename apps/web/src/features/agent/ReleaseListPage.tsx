import { Badge, Button, Group, Loader, Stack, Table, Text, Tooltip } from '@mantine/core';
import { ROLLOUT_UNDER_WAY, type Release } from '@fleetlink/contract';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Fragment } from 'react';
import { Link } from '../../router/router';
import { RolloutModalButton } from './RolloutModal';
import { RolloutButtons, RolloutPanel } from './RolloutPanel';
import { StandingBadges } from './StandingBadges';
import { ConfirmButton } from '../../app/forms/ConfirmButton';
import { useDeleteRelease, useReleases } from './release-api';
import { TableScroller } from '../../app/tables/TableScroller';

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
        <TableScroller label="Releases" minWidth={900}>
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
                <Table.Th>Rollout</Table.Th>
                <Table.Th w={1}>Delete</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {releases.data.map((r) => (
                <Fragment key={`${r.branch} ${r.version}`}>
                  <Table.Tr data-testid="release-row">
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
                    <Table.Td data-testid="release-devices">{r.devices ? <StandingBadges devices={r.devices} /> : null}</Table.Td>
                    <Table.Td>
                      <RolloutCell release={r} />
                    </Table.Td>
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
                  {r.rollout ? (
                    <Table.Tr>
                      <Table.Td colSpan={6} pl="xl">
                        <RolloutPanel release={r} rollout={r.rollout} />
                      </Table.Td>
                    </Table.Tr>
                  ) : null}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroller>
      ) : (
        <Text c="dimmed">No releases yet.</Text>
      )}
    </Stack>
  );
}

/** How the release reaches devices, and what can be done to it now (issue 65). */
function RolloutCell({ release }: { release: Release }) {
  const state = release.rollout?.state;
  // New waves only once none is under way (abort first).
  const canSet = !state || !ROLLOUT_UNDER_WAY.includes(state);
  return (
    <Group gap={6}>
      {!release.rollout ? (
        <Badge variant="outline" color="gray" tt="none">
          All at once
        </Badge>
      ) : null}
      {canSet ? <RolloutModalButton release={release} /> : null}
      <RolloutButtons release={release} />
    </Group>
  );
}
