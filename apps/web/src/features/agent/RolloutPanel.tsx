import { rolloutActionFrom, type Release, type Rollout, type RolloutAction, type RolloutState } from '@fleetlink/contract';
import { Alert, Badge, Button, Group, List, Loader, Popover, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmButton } from '../../app/forms/ConfirmButton';
import { useRolloutAction, useRolloutWave } from './release-api';
import { StandingBadges } from './StandingBadges';

const stateColor: Record<RolloutState, string> = { RUNNING: 'blue', PAUSED: 'yellow', HALTED: 'red', ABORTED: 'gray', DONE: 'teal', ROLLED_BACK: 'orange' };
const stateText: Record<RolloutState, string> = { RUNNING: 'Running', PAUSED: 'Paused', HALTED: 'Halted', ABORTED: 'Aborted', DONE: 'Done', ROLLED_BACK: 'Rolled back' };

/** The buttons, each with its question (issue 65), in the order they read. */
const actions: { action: RolloutAction; label: string; color?: string; question: (name: string) => string }[] = [
  { action: 'pause', label: 'Pause', question: (n) => `Pause the rollout of ${n}? No further device is offered it until you resume.` },
  { action: 'resume', label: 'Resume', question: (n) => `Resume the rollout of ${n}? The failures so far are accepted; the waves go on from the current one.` },
  { action: 'abort', label: 'Abort', color: 'red', question: (n) => `Abort the rollout of ${n}? Devices that took it keep it; the others keep their release.` },
  { action: 'rollback', label: 'Roll back this release', color: 'red', question: (n) => `Roll back ${n}? Devices that took it are offered the release before it again.` },
];

const share = (w: Rollout['waves'][number]) => (w.unit === 'percent' ? `${w.amount} %` : `${w.amount} ${w.amount === 1 ? 'device' : 'devices'}`);

/** The actions a release's rollout allows now (a release without waves can only be rolled back). */
export function RolloutButtons({ release }: { release: Release }) {
  const act = useRolloutAction();
  const name = `${release.branch} ${release.version}`;
  const state = release.rollout?.state ?? null;
  return (
    <Group gap={6}>
      {actions
        .filter((a) => rolloutActionFrom[a.action].includes(state))
        .map((a) => (
          <ConfirmButton
            key={a.action}
            size="compact-sm"
            variant="light"
            color={a.color}
            question={a.question(name)}
            questionTestId="rollout-question"
            onConfirm={() => act.mutateAsync({ release, action: a.action })}
          >
            {a.label}
          </ConfirmButton>
        ))}
    </Group>
  );
}

/** A rollout as the releases page shows it: its state and why, each wave's share and counts (live), and its buttons. */
export function RolloutPanel({ release, rollout }: { release: Release; rollout: Rollout }) {
  return (
    <Stack gap="xs" data-testid="rollout-panel">
      <Group gap="xs">
        <Badge color={stateColor[rollout.state]} data-testid="rollout-state">
          {stateText[rollout.state]}
        </Badge>
        {rollout.waves.length ? (
          <Text size="sm">
            Wave {rollout.wave} of {rollout.waves.length} · healthy for {rollout.waitMinutes} min · halts above {rollout.failurePercent} %
            {rollout.failureCount !== null ? ` or at ${rollout.failureCount} devices` : ''} failed
          </Text>
        ) : null}
        {rollout.nextWaveAt ? (
          <Text size="sm" c="dimmed">
            next wave at {new Date(rollout.nextWaveAt).toLocaleString()}
          </Text>
        ) : null}
      </Group>
      {rollout.reason ? (
        <Alert color={rollout.state === 'HALTED' ? 'red' : 'gray'} icon={rollout.state === 'HALTED' ? <IconAlertTriangle size={18} /> : undefined} p="xs" data-testid="rollout-reason">
          {rollout.reason}
        </Alert>
      ) : null}
      {rollout.waves.length ? (
        <Table withTableBorder data-testid="rollout-waves">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Wave</Table.Th>
              <Table.Th>Share</Table.Th>
              <Table.Th>Devices</Table.Th>
              <Table.Th>Standing</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rollout.waves.map((w, i) => (
              <Table.Tr key={i} data-testid="rollout-wave">
                <Table.Td>{i + 1}</Table.Td>
                <Table.Td>{share(w)}</Table.Td>
                <Table.Td>
                  <WaveDevices release={release} wave={i + 1} count={w.devices} />
                </Table.Td>
                <Table.Td>
                  {i + 1 <= rollout.wave || !w.devices ? (
                    <StandingBadges devices={w.standing} />
                  ) : (
                    <Text size="sm" c="dimmed">{`${w.devices} waiting for wave ${i + 1}`}</Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Stack>
  );
}

/** Which devices are in a wave: a list opened on demand (a wave may hold thousands; the first 500 by name). */
function WaveDevices({ release, wave, count }: { release: Release; wave: number; count: number }) {
  const [opened, setOpened] = useState(false);
  const list = useRolloutWave(release, wave, opened);
  if (!count) return <Text size="sm">0</Text>;
  return (
    <Popover opened={opened} onChange={setOpened} width={320} position="bottom-start" withArrow>
      <Popover.Target>
        <Button variant="subtle" size="compact-sm" onClick={() => setOpened((o) => !o)} aria-label={`Devices of wave ${wave}`}>
          {count}
        </Button>
      </Popover.Target>
      <Popover.Dropdown mah={320} style={{ overflowY: 'auto' }}>
        {list.isPending ? (
          <Loader size="sm" />
        ) : (
          <List size="sm" spacing={2}>
            {list.data?.devices.map((d) => (
              <List.Item key={d.id}>
                {d.name} <Text span c="dimmed" size="xs">{d.state}{d.reason ? `: ${d.reason}` : ''}</Text>
              </List.Item>
            ))}
            {list.data && list.data.total > list.data.devices.length ? <List.Item>… and {list.data.total - list.data.devices.length} more</List.Item> : null}
          </List>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
