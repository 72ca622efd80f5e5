import { Button, Card, Code, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { agentPortableFolder, formatBytes, type AgentDownload, type AgentDownloadKind } from '@fleetlink/contract';
import { IconDownload } from '@tabler/icons-react';
import { useAgentDownloads, useSaveAgentDownload } from './agent-downloads-api';

const howTitle: Record<AgentDownloadKind, string> = {
  installer: 'Install on Linux',
  portable: 'Run from the portable archive',
};

const kindLabel: Record<AgentDownloadKind, string> = {
  installer: 'Linux installer (shell script)',
  portable: 'Portable archive (.tar.gz, runs where it is unpacked)',
};

/**
 * SPEC §2 Install downloads (issue 32): what the console really built from the device's release,
 * with each file's real size in base-1024 units; and, through `commandOf`, the command that runs each.
 */
export function AgentDownloadsCard({ deviceId, commandOf }: { deviceId: string; commandOf?: (download: AgentDownload, bundleVersion: string) => React.ReactNode }) {
  const downloads = useAgentDownloads(deviceId);
  const save = useSaveAgentDownload(deviceId);
  return (
    <Card withBorder radius="md">
      <Title order={2} size="h4" mb="sm">
        Downloads
      </Title>
      {downloads.isPending ? (
        <Loader size="sm" />
      ) : !downloads.data?.release ? (
        <Text size="sm" c="dimmed" data-testid="install-downloads">
          No agent downloads are available yet. Installers appear here once an agent release has been published for this device’s branch.
        </Text>
      ) : (
        <Stack gap="sm" data-testid="install-downloads">
          <Text size="sm" data-testid="install-downloads-version">
            Agent version {downloads.data.release.bundleVersion} (release {downloads.data.release.branch} {downloads.data.release.version}
            {downloads.data.release.builtIn ? ', built in: the agent this console was built with, until a release of your own takes over' : ''}). The
            agent needs Node.js 20.19 or newer on the device; the installer checks for it.
          </Text>
          <Table>
            <Table.Tbody>
              {downloads.data.downloads.map((d: AgentDownload) => (
                <Table.Tr key={d.kind} data-testid={`download-${d.kind}`}>
                  <Table.Td>
                    <Text size="sm">{kindLabel[d.kind]}</Text>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {d.name}
                    </Text>
                  </Table.Td>
                  <Table.Td data-testid={`download-${d.kind}-size`}>{formatBytes(d.size)}</Table.Td>
                  <Table.Td w={1}>
                    <Button
                      size="compact-sm"
                      variant="light"
                      leftSection={<IconDownload size={14} />}
                      loading={save.isPending && save.variables?.kind === d.kind}
                      onClick={() => save.mutate(d)}
                    >
                      Download
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {commandOf
            ? downloads.data.downloads.map((d) => (
                <Stack gap={4} key={d.kind} data-testid={`download-${d.kind}-how`}>
                  <Text size="sm" fw={500}>
                    {howTitle[d.kind]}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {d.kind === 'installer' ? (
                      <>
                        Run this as root where the installer was saved: it installs into <Code>/opt/fleetlink-agent</Code>, writes the systemd unit{' '}
                        <Code>fleetlink-agent.service</Code> and starts the agent, which then updates itself to its branch’s releases.
                      </>
                    ) : (
                      <>
                        Run this as any user where the archive was saved: it unpacks the folder <Code>{agentPortableFolder(downloads.data.release!.bundleVersion)}</Code>{' '}
                        and runs the agent from it, in the foreground; the agent keeps its credentials in the folder’s <Code>data</Code> and
                        updates itself there.
                      </>
                    )}
                  </Text>
                  {commandOf(d, downloads.data.release!.bundleVersion)}
                </Stack>
              ))
            : null}
        </Stack>
      )}
    </Card>
  );
}
