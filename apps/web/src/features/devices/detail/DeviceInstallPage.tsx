import { ActionIcon, Card, CopyButton, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconEye, IconEyeOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useCurrentDevice } from './DeviceLayout';

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
          {visible ? value : '•'.repeat(Math.min(value.length, 32))}
        </Text>
        <Tooltip label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`} withArrow>
          <ActionIcon variant="subtle" color="gray" onClick={() => setVisible((v) => !v)} aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}>
            {visible ? <IconEyeOff size={16} /> : <IconEye size={16} />}
          </ActionIcon>
        </Tooltip>
        <Copy value={value} label={label.toLowerCase()} />
      </Group>
    </Stack>
  );
}

/** /devices/{id}/install: what the agent needs to enroll, and the agent downloads (SPEC §2). */
export function DeviceInstallPage() {
  const device = useCurrentDevice();
  return (
    <Stack>
      <Card withBorder radius="md">
        <Title order={4} mb="sm">
          Install the agent
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
