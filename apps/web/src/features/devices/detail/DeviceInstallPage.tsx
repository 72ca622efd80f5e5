import { ActionIcon, Card, Code, CopyButton, Group, List, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconEye, IconEyeOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useCurrentDevice } from './DeviceLayout';
import { AGENT_BIN, agentCommand, maskedAgentCommand, maskSecret } from './agent-command';

/** SPEC §9: copy-icon feedback lasts 1 s. */
export const COPY_FEEDBACK_MS = 1000;

function Copy({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value} timeout={COPY_FEEDBACK_MS}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : `Copy ${label}`} withArrow>
          <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={copied ? 'Copied' : `Copy ${label}`}>
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

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
        <Copy value={value} label={label.toLowerCase()} />
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

/**
 * The command that enrolls and runs the agent for this device. It contains the installation key,
 * so the key is masked on screen until shown; the copy button always copies the real command.
 */
function AgentCommandCard({ deviceId, installationKey }: { deviceId: string; installationKey: string }) {
  const [visible, setVisible] = useState(false);
  const input = { consoleUrl: window.location.origin, deviceId, installationKey };
  const command = agentCommand(input);
  return (
    <Card withBorder radius="md" data-testid="install-command-card">
      <Title order={4} mb="sm">
        Run the agent
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Run this on the device (Node.js 20.19 or newer). The first run enrolls with the installation key and stores the device’s own
        credentials; later runs need no key. Add <Code>--data-dir &lt;dir&gt;</Code> to choose where they are kept (default{' '}
        <Code>~/.fleetlink-agent/&lt;device id&gt;</Code>).
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code block style={{ flex: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="install-command">
          {visible ? command : maskedAgentCommand(input)}
        </Code>
        <VisibilityToggle visible={visible} onToggle={() => setVisible((v) => !v)} what="command" />
        <Copy value={command} label="command" />
      </Group>
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

/** /devices/{id}/install: what the agent needs to enroll, the command to run it, and the downloads (SPEC §2). */
export function DeviceInstallPage() {
  const device = useCurrentDevice();
  return (
    <Stack>
      <AgentCommandCard deviceId={device.id} installationKey={device.installationId} />
      <Card withBorder radius="md">
        <Title order={4} mb="sm">
          Device id and installation key
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          The agent enrolls this device with its id and installation key. Keep the key secret: whoever has it can enroll as this
          device.
        </Text>
        <Stack>
          <SecretField label="Device id" value={device.id} />
          <SecretField label="Installation key" value={device.installationId} />
        </Stack>
      </Card>
      <Card withBorder radius="md">
        <Title order={4} mb="sm">
          Downloads
        </Title>
        <Text size="sm" c="dimmed" data-testid="install-downloads">
          No agent downloads are available yet. Installers appear here once an agent release has been published.
        </Text>
      </Card>
    </Stack>
  );
}
