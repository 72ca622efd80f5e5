import { AgentProperty, deviceBranchLabel, nodeEndOfLife, type DeviceDrive } from '@fleetlink/contract';
import { Anchor, Group, Progress, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { IconBuilding, IconHome, IconUser, IconWorld } from '@tabler/icons-react';
import { Link } from '../../../router/router';
import { formatDateTime, formatLongDate, formatSince } from '../../../app/format/date-format';
import { useCurrentDevice } from '../detail/current-device';
import { MonitorValue } from '../monitors/MonitorValue';
import { lastResponseText } from '../search/DeviceCard';
import { DeviceLoad, DeviceTimeline } from './DeviceMetrics';
import { SummaryCard } from './SummaryCard';
import { formatBytes, numberProperty, usedPercent } from './units';

function Usage({ label, total, free }: { label: string; total?: number; free?: number }) {
  const percent = usedPercent(total, free);
  if (total === undefined) return null;
  return (
    <Stack gap={2}>
      <Group justify="space-between">
        <Text size="sm">{label}</Text>
        <Text size="sm" c="dimmed">
          {free !== undefined ? `${formatBytes(total - free)} of ${formatBytes(total)}` : formatBytes(total)}
          {percent !== undefined ? ` (${percent}%)` : ''}
        </Text>
      </Group>
      {percent !== undefined ? <Progress value={percent} size="sm" aria-label={`${label} used ${percent}%`} /> : null}
    </Stack>
  );
}

/**
 * The agent reports its runtime under SPEC's java.* keys (a Node.js agent: Node.js and its version).
 * Devices keep their Node longer than servers: one past its end of life gets no security fixes.
 */
function runtime(prop: (key: string) => string | undefined): React.ReactNode {
  const text = [prop('java.name'), prop('java.version')].filter(Boolean).join(' ');
  if (!text) return undefined;
  const endOfLife = prop('java.name') === 'Node.js' ? nodeEndOfLife(prop('java.version')) : undefined;
  if (!endOfLife) return text;
  return (
    <Stack gap={0}>
      <span>{text}</span>
      <Text size="xs" c="red" data-testid="runtime-end-of-life">
        End of life since {formatLongDate(new Date(`${endOfLife}T12:00:00`))}: no more security fixes
      </Text>
    </Stack>
  );
}

/** The drive's last scan (SPEC §3 drive detail), linking to where the Storage page shows it. */
function DriveScanNote({ deviceId, drive }: { deviceId: string; drive: DeviceDrive }) {
  const detail = drive.detail;
  if (!detail) return null;
  const path = detail.root?.path ?? drive.root;
  const text = { BUSY: 'Scanning…', DONE: `Scanned ${formatDateTime(new Date(detail.finishedAt ?? detail.startedAt))}`, FAILED: 'Last scan failed' }[detail.status];
  return (
    <Anchor component={Link} to={`/devices/${deviceId}/file?${new URLSearchParams({ path })}`} size="xs" c={detail.status === 'FAILED' ? 'red' : undefined}>
      {text}
    </Anchor>
  );
}

/** /devices/{id}: summary cards from the agent's stored properties; any subset renders (SPEC §2). */
export function DeviceSummaryPage() {
  const device = useCurrentDevice();
  const p = device.properties ?? {};
  const prop = (key: string) => p[key] || undefined;
  const num = (key: string) => numberProperty(device.properties, key);
  const OrgIcon = device.organization.type === 'COMPANY' ? IconBuilding : IconUser;
  const cpuLoad = num('cpu.sys.load');
  const javaTotal = num('java.mem.total');
  const javaFree = num('java.mem.free');
  const swapTotal = num('swap.total');

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <SummaryCard
        title="Device"
        rows={[
          [
            'Name',
            <Group gap="xs" key="name">
              <span>{device.name}</span>
              {device.canManage ? (
                <Anchor component={Link} to={`/devices/${device.id}/edit`} size="sm">
                  Edit
                </Anchor>
              ) : null}
            </Group>,
          ],
          ['Description', device.description ? <span style={{ whiteSpace: 'pre-line' }}>{device.description}</span> : undefined],
          [
            'Organization',
            <Group gap={6} key="org" wrap="nowrap">
              <Tooltip label={device.organization.type === 'COMPANY' ? 'Company' : 'Personal'}>
                <OrgIcon size={16} aria-label={device.organization.type === 'COMPANY' ? 'Company' : 'Personal'} role="img" />
              </Tooltip>
              <span>{device.organization.name}</span>
            </Group>,
          ],
          ['Branch', deviceBranchLabel[device.branch]],
          ['Last response', lastResponseText(device)],
        ]}
      />
      <SummaryCard
        title="System"
        rows={[
          ['Operating system', [prop('os.name'), prop('os.version')].filter(Boolean).join(' ') || undefined],
          ['Architecture', prop('os.arch')],
          ['Hostname', prop('hostname')],
          ['Agent user', prop('user.name')],
          ['User home', prop('user.home')],
          // SPEC §2 'optional monitors': each by its name, its value shown by type.
          ...device.monitors.map((m) => [`Monitor ${m.name}`, <MonitorValue key={m.id} monitor={m} />] as [string, React.ReactNode]),
        ]}
      />
      <SummaryCard
        title="Network"
        rows={[
          ...device.addresses.map(
            (a, i) =>
              [
                i === 0 ? 'IP addresses' : ' ',
                <Group gap={6} key={`${a.type}-${a.ip}`} wrap="nowrap">
                  <Tooltip label={a.type === 'PUBLIC' ? 'Public' : 'Local'}>
                    {a.type === 'PUBLIC' ? <IconWorld size={16} aria-label="Public" role="img" /> : <IconHome size={16} aria-label="Local" role="img" />}
                  </Tooltip>
                  <span>{a.ip}</span>
                </Group>,
              ] as [string, React.ReactNode],
          ),
          ['Latency', device.online && device.latency !== null ? `${device.latency} ms` : undefined],
        ]}
      >
        <DeviceTimeline deviceId={device.id} />
      </SummaryCard>
      <SummaryCard
        title="Agent"
        rows={[
          ['Bundle', prop(AgentProperty.BundleVersion)],
          ['Launcher', prop(AgentProperty.LauncherVersion)],
          ['Update bundle', updateBundle(prop)],
          ['Restarts', restarts(prop)],
          ['Runtime', runtime(prop)],
          ['Working dir', prop('user.dir')],
          ['Runtime home', prop('java.home')],
          ['Servers', device.servers.length ? device.servers.map((s) => s.url).join(', ') : undefined],
        ]}
      />
      <SummaryCard title="Memory">
        <Usage label="Physical" total={num('mem.total')} free={num('mem.free')} />
        {swapTotal !== undefined && swapTotal > 0 ? <Usage label="Virtual" total={swapTotal} free={num('swap.free')} /> : null}
        <Usage label="Agent" total={javaTotal} free={javaFree} />
      </SummaryCard>
      <SummaryCard title="Storage">
        {device.drives.map((d) => (
          <Stack key={d.root} gap={2}>
            <Usage label={d.name ? `${d.name} (${d.root})` : d.root} total={d.totalSpace} free={d.freeSpace} />
            <DriveScanNote deviceId={device.id} drive={d} />
          </Stack>
        ))}
      </SummaryCard>
      <SummaryCard
        title="Processor"
        rows={[
          ['Processors', prop('cpu.count')],
          ['Utilization', cpuLoad !== undefined ? `${Math.round((cpuLoad <= 1 ? cpuLoad * 100 : cpuLoad))}%` : undefined],
          ['Agent threads', prop('java.thread.alive')],
        ]}
      >
        <DeviceLoad deviceId={device.id} online={device.online} />
      </SummaryCard>
    </SimpleGrid>
  );
}

/**
 * How often the launcher restarted a crashed or killed agent, and how it last ended (issue 67); as
 * text, since the agent wrote it. "None" under a launcher that has not had to; nothing without one.
 */
function restarts(prop: (key: string) => string | undefined): string | undefined {
  const count = prop(AgentProperty.Restarts);
  if (!count) return prop(AgentProperty.LauncherVersion) && prop(AgentProperty.LauncherVersion) !== '-' ? 'None' : undefined;
  const at = Date.parse(prop(AgentProperty.LastExitTime) ?? '');
  return `${count} (last: ${prop(AgentProperty.LastExit) ?? 'no reason given'}${Number.isNaN(at) ? '' : ` at ${formatSince(new Date(at))}`})`;
}

/** The update bundle's version, and how its update stands (issue 32): as text, since the agent wrote it. */
function updateBundle(prop: (key: string) => string | undefined): string | undefined {
  const version = prop(AgentProperty.UpdateBundleVersion);
  const status = prop(AgentProperty.UpdateStatus);
  if (!version) return undefined;
  if (status === 'UPDATING') return `${version} (updating)`;
  if (status === 'FAILED') return `${version} (failed: ${prop(AgentProperty.UpdateError) ?? 'no reason given'})`;
  return version;
}
