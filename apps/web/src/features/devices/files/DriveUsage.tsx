import type { DeviceDrive } from '@fleetlink/contract';
import { Alert, Anchor, Card, Group, List, Loader, Progress, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../../app/format/date-format';
import { formatBytes, usedPercent } from '../summary/units';

/**
 * A drive's space and its last scan (SPEC §3 drive detail, §4 BUSY): while the scan runs, a spinner;
 * then the space used under each folder of the path scanned, largest first, against the drive's total.
 */
export function DriveUsage({ drive, onOpen }: { drive: DeviceDrive; onOpen: (path: string) => void }) {
  const detail = drive.detail;
  const total = drive.totalSpace;
  const used = usedPercent(total, drive.freeSpace);
  return (
    <Card withBorder radius="md" data-testid="drive-usage">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h5" style={{ overflowWrap: 'anywhere' }}>
            {drive.name ? `${drive.name} (${drive.root})` : drive.root}
          </Title>
          {total !== undefined && drive.freeSpace !== undefined ? (
            <Text size="sm" c="dimmed">
              {formatBytes(total - drive.freeSpace)} used, {formatBytes(drive.freeSpace)} free of {formatBytes(total)}
            </Text>
          ) : null}
        </Group>
        {used !== undefined ? <Progress value={used} aria-label={`${used}% used`} /> : null}
        {detail?.status === 'BUSY' ? (
          <Group gap="sm" data-testid="drive-scan-busy">
            <Loader size="xs" />
            <Text size="sm">Scanning… started {formatDateTime(new Date(detail.startedAt))}</Text>
          </Group>
        ) : null}
        {detail?.status === 'FAILED' ? (
          <Alert color="red" title="The scan failed" data-testid="drive-scan-failed">
            {detail.error}
          </Alert>
        ) : null}
        {detail?.status === 'DONE' && detail.root ? (
          <Stack gap={4} data-testid="drive-scan-result">
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {formatBytes(detail.root.size)} under {detail.root.path}, scanned {formatDateTime(new Date(detail.finishedAt ?? detail.startedAt))}
              {detail.root.complete ? '' : ' (stopped at its time limit: sizes are at least these)'}
            </Text>
            {detail.root.unreadable ? <Unreadable count={detail.root.unreadable} paths={detail.root.unreadablePaths ?? []} /> : null}
            <Table striped withTableBorder fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Folder</Table.Th>
                  <Table.Th ta="right">Used</Table.Th>
                  <Table.Th ta="right">Of drive</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {detail.root.folders.map((f) => (
                  <UsageRow
                    key={f.path}
                    label={
                      <Anchor component="button" type="button" size="sm" onClick={() => onOpen(f.path)} style={{ overflowWrap: 'anywhere', textAlign: 'left' }}>
                        {f.name}
                      </Anchor>
                    }
                    size={f.size}
                    total={total}
                  />
                ))}
                {detail.root.others ? <UsageRow label="Other folders" size={detail.root.others} total={total} /> : null}
                <UsageRow label="Files" size={detail.root.files} total={total} />
                {drive.freeSpace !== undefined ? <UsageRow label="Free" size={drive.freeSpace} total={total} /> : null}
              </Table.Tbody>
            </Table>
          </Stack>
        ) : null}
      </Stack>
    </Card>
  );
}

/** "3 folders could not be read", and which (the first 20 the agent names). */
function Unreadable({ count, paths }: { count: number; paths: string[] }) {
  return (
    <Stack gap={2} data-testid="drive-scan-unreadable">
      <Text size="sm" c="orange">
        {count} folder{count === 1 ? '' : 's'} could not be read (no permission){paths.length ? ':' : '.'}
      </Text>
      {paths.length ? (
        <List size="sm" ff="monospace" spacing={0}>
          {paths.map((p) => (
            <List.Item key={p} style={{ overflowWrap: 'anywhere' }}>
              {p}
            </List.Item>
          ))}
          {count > paths.length ? <List.Item>and {count - paths.length} more</List.Item> : null}
        </List>
      ) : null}
    </Stack>
  );
}

function UsageRow({ label, size, total }: { label: ReactNode; size: number; total: number | undefined }) {
  return (
    <Table.Tr>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>{label}</Table.Td>
      <Table.Td ta="right">{formatBytes(size)}</Table.Td>
      <Table.Td ta="right">{total ? `${Math.round((size / total) * 100)}%` : '-'}</Table.Td>
    </Table.Tr>
  );
}
