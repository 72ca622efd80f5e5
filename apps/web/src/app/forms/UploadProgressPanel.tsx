import { formatBytes } from '@fleetlink/contract';
import { Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import type { UploadState } from '../api/useTrackedUpload';


interface UploadProgressPanelProps {
  state: UploadState;
  /** What the console does once every byte has reached it (a device receiving it, a check). */
  afterSent: string;
  onCancel: () => void;
  testId: string;
}

/** How much of a file has reached the console, then what happens to it; Cancel stops it either way. */
export function UploadProgressPanel({ state: s, afterSent, onCancel, testId }: UploadProgressPanelProps) {
  const sent = s.total > 0 && s.loaded >= s.total;
  const percent = s.total > 0 ? Math.min(100, Math.floor((s.loaded / s.total) * 100)) : 0;
  return (
    <Paper withBorder p="sm" data-testid={testId}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {sent ? afterSent : `Uploading ${s.name}: ${percent}% of ${formatBytes(s.total)}`}
          </Text>
          <Button size="xs" variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
        <Progress value={sent ? 100 : percent} striped={sent} animated={sent} aria-label={`Upload of ${s.name}`} />
      </Stack>
    </Paper>
  );
}
