import { ActionIcon, Card, Code, Group, List, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { Device } from '@fleetlink/contract';
import { IconEye, IconEyeOff, IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmButton } from '../../../app/forms/ConfirmButton';
import { CopyValueButton } from '../../../app/forms/CopyValueButton';
import { formatDateTime } from '../../../app/format/date-format';
import { useResetInstallationKey } from '../device-api';
import { useCurrentDevice } from './current-device';
import { AGENT_BIN, agentCommand, installerCommand, masked, maskSecret, portableCommand, type AgentCommandInput } from './agent-command';
import { AgentDownloadsCard } from './AgentDownloadsCard';

function SecretField({ label, value }: { label: string; value: string }) {
  const [visible, setVisible] = useState(false);
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Text ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }} data-testid={`install-${label.toLowerCase().replace(/\s+/g, '-')}`}>
          {visible ? value : maskSecret(value)}
        </Text>
        <VisibilityToggle visible={visible} onToggle={() => setVisible((v) => !v)} what={label.toLowerCase()} />
        <CopyValueButton value={value} label={label.toLowerCase()} />
      </Group>
    </Stack>
  );
}

function VisibilityToggle({ visible, onToggle, what }: { visible: boolean; onToggle(): void; what: string }) {
  const label = `${visible ? 'Hide' : 'Show'} ${what}`;
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon variant="subtle" color="gray" onClick={onToggle} aria-label={label}>
        {visible ? <IconEyeOff size={16} /> : <IconEye size={16} />}
      </ActionIcon>
    </Tooltip>
  );
}

/** A command holding the installation key: masked until shown; the copy button always copies the real command. */
function SecretCommand({ command, masked, testId }: { command: string; masked: string; testId: string }) {
  const [visible, setVisible] = useState(false);
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" style={{ flex: 1 }}>
      <Code block style={{ flex: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid={testId}>
        {visible ? command : masked}
      </Code>
      <VisibilityToggle visible={visible} onToggle={() => setVisible((v) => !v)} what="command" />
      <CopyValueButton value={command} label="command" />
    </Group>
  );
}

/** The command that enrolls and runs the agent for this device from a checkout of this repository. */
function AgentCommandCard({ deviceId, installationKey, keyUsed }: { deviceId: string; installationKey: string; keyUsed: boolean }) {
  const input = { consoleUrl: window.location.origin, deviceId, installationKey };
  return (
    <Card withBorder radius="md" data-testid="install-command-card">
      <Title order={2} size="h4" mb="sm">
        Run the agent from a checkout
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Run this on the device (Node.js 20.19 or newer). The first run enrolls with the installation key and stores the device’s own
        credentials; later runs need no key. Add <Code>--data-dir &lt;dir&gt;</Code> to choose where they are kept (default{' '}
        <Code>~/.fleetlink-agent/&lt;device id&gt;</Code>). This runs the agent of the checkout as it is; to install the agent as a service
        that updates itself to its branch’s releases, use the installer under Downloads.
      </Text>
      <SecretCommand command={agentCommand(input)} masked={agentCommand(masked(input))} testId="install-command" />
      {keyUsed ? (
        <Text size="sm" c="orange" mt="xs" data-testid="install-command-key-used">
          Its key has enrolled the device’s agent already: this command enrolls another machine only after the key is reset (below).
        </Text>
      ) : null}
      <Text size="sm" fw={500} mt="md">
        From a checkout of this repository
      </Text>
      <List size="sm" c="dimmed" spacing={4}>
        <List.Item>
          The agent is the <Code>apps/agent</Code> workspace with the bin <Code>{AGENT_BIN}</Code>; it is not published to the npm
          registry, so <Code>npx</Code> finds it only inside the checkout.
        </List.Item>
        <List.Item>
          Run <Code>npm install</Code> once at the repository root, then the command above from the root (or any folder in it).
        </List.Item>
        <List.Item>
          From elsewhere, replace <Code>npx {AGENT_BIN}</Code> with <Code>node &lt;checkout&gt;/apps/agent/bin/{AGENT_BIN}.mjs</Code>{' '}
          (or use <Code>npm start -w apps/agent -- run …</Code> at the root).
        </List.Item>
        <List.Item>
          The bin runs the bundled agent in <Code>apps/agent/dist</Code>: <Code>npm run build</Code> at the root makes it, and the bin
          rebuilds it by itself when it is missing or older than the sources.
        </List.Item>
      </List>
    </Card>
  );
}

/** Where a member who may not manage the device reads why there is no key. */
function KeyForManagersOnly({ organization }: { organization: string }) {
  return (
    <Text size="sm" data-testid="install-key-managers-only">
      Only the creator or an administrator of the organization “{organization}” can show the installation key and the command that
      holds it.
    </Text>
  );
}

/** Whether the key still enrolls, and the way to a new one: a used key enrolls nothing (issue 23). */
function KeyState({ device }: { device: Device }) {
  const reset = useResetInstallationKey(device.id);
  const usedAt = device.installationKeyUsedAt;
  return (
    <Stack gap="xs" mt="md">
      <Text size="sm" c="dimmed" data-testid="install-key-state">
        {usedAt
          ? `The agent enrolled with this key on ${formatDateTime(new Date(usedAt))}; it enrolls nothing more. To enroll the device again (a reinstalled or replaced machine), reset the key.`
          : 'Not used yet: the first agent that enrolls with this key uses it up.'}
      </Text>
      <Group>
        <ConfirmButton
          variant="light"
          color="red"
          leftSection={<IconKey size={16} />}
          loading={reset.isPending}
          question={`Reset the installation key of ${device.name}? The agent running now is disconnected, and only the new key can enroll the device again.`}
          confirmLabel="Reset"
          onConfirm={() => reset.mutateAsync()}
        >
          Reset installation key
        </ConfirmButton>
      </Group>
    </Stack>
  );
}

/** /devices/{id}/install: the downloads (SPEC §2) with the installer's command, what the agent needs to enroll, and the command to run it from a checkout. */
export function DeviceInstallPage() {
  const device = useCurrentDevice();
  const key = device.installationId;
  return (
    <Stack>
      <AgentDownloadsCard
        deviceId={device.id}
        commandOf={
          key !== null
            ? (download, bundleVersion) => {
                const input = { consoleUrl: window.location.origin, deviceId: device.id, installationKey: key };
                const command = (i: AgentCommandInput) =>
                  download.kind === 'installer' ? installerCommand(i, download.name) : portableCommand(i, download.name, bundleVersion);
                return <SecretCommand command={command(input)} masked={command(masked(input))} testId={`install-${download.kind}-command`} />;
              }
            : undefined
        }
      />
      {key !== null ? (
        <AgentCommandCard deviceId={device.id} installationKey={key} keyUsed={device.installationKeyUsedAt !== null} />
      ) : (
        <Card withBorder radius="md" data-testid="install-command-card">
          <Title order={2} size="h4" mb="sm">
            Run the agent
          </Title>
          <Text size="sm" c="dimmed">
            The command holds the device’s installation key: ask the creator or an administrator of the organization “
            {device.organization.name}” to run the agent, or for the command.
          </Text>
        </Card>
      )}
      <Card withBorder radius="md">
        <Title order={2} size="h4" mb="sm">
          Device id and installation key
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          The agent enrolls this device with its id and installation key, once: after that it uses credentials of its own. Keep the
          key secret until then.
        </Text>
        <Stack>
          <SecretField label="Device id" value={device.id} />
          {key !== null ? <SecretField label="Installation key" value={key} /> : <KeyForManagersOnly organization={device.organization.name} />}
        </Stack>
        {key !== null ? <KeyState device={device} /> : null}
      </Card>
    </Stack>
  );
}
