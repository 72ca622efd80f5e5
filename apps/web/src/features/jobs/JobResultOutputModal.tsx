import { Alert, Center, Code, Loader, Stack, Text } from '@mantine/core';
import { useJobOutput } from './jobs-api';

/** One device's output in a run: what it printed to each stream (the first 64 KiB of each), as text. */
export function JobResultOutputModal({ jobId, runId, deviceId }: { jobId: string; runId: string; deviceId: string }) {
  const output = useJobOutput(jobId, runId, deviceId);
  if (output.isLoading) return <Center p="md"><Loader /></Center>;
  if (!output.data) return <Alert color="red">The output could not be read.</Alert>;
  const r = output.data;
  return (
    <Stack data-testid="job-output">
      {r.reason ? <Text>{r.reason}</Text> : null}
      <Stream label="Output" text={r.stdout} />
      <Stream label="Errors" text={r.stderr} />
    </Stack>
  );
}

function Stream({ label, text }: { label: string; text: string }) {
  return (
    <Stack gap={4}>
      <Text fw={500} size="sm">
        {label}
      </Text>
      {text ? (
        <Code block style={{ maxHeight: 360, overflow: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {text}
        </Code>
      ) : (
        <Text size="sm" c="dimmed">
          Nothing.
        </Text>
      )}
    </Stack>
  );
}
