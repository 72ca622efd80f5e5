import type { CommandOutput, FileListing } from '@fleetlink/contract';
import { Alert, Anchor, Badge, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from '../../../router/router';
import { commandFailureText, cutNote, formatDuration, listingSummary, outcome } from './command-output';

/** The device's answer: how the command ended, how long it took, and both output streams as text. */
export function CommandAnswer({ name, output }: { name: string; output: CommandOutput }) {
  const end = outcome(output);
  return (
    <Card withBorder radius="md" data-testid="command-answer">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h5" style={{ overflowWrap: 'anywhere' }}>
          {name}
        </Title>
        <Group gap="xs">
          <Badge color={end.ok ? 'teal' : 'red'} variant="light" tt="none" data-testid="command-outcome">
            {end.text}
          </Badge>
          <Badge color="gray" variant="light" tt="none" data-testid="command-duration">
            {formatDuration(output.durationMs)}
          </Badge>
        </Group>
      </Group>
      <Stack gap="sm">
        <Stream label="Output" testId="command-stdout" text={output.stdout} cut={output.stdoutCut} />
        <Stream label="Errors" testId="command-stderr" text={output.stderr} cut={output.stderrCut} />
      </Stack>
    </Card>
  );
}

function Stream({ label, testId, text, cut }: { label: string; testId: string; text: string; cut: number }) {
  const note = cutNote(cut);
  if (!text && !note) {
    return (
      <Text size="sm" c="dimmed" data-testid={testId}>
        {label}: none
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Code block data-testid={testId} style={{ maxHeight: 420, overflow: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {text}
      </Code>
      {note ? (
        <Text size="xs" c="orange" data-testid={`${testId}-cut`}>
          {note}
        </Text>
      ) : null}
    </Stack>
  );
}

/** Why there is no answer (offline, silent, refused), in the console's words. */
export function CommandFailure({ error }: { error: Error }) {
  return (
    <Alert color="red" title="The command failed" data-testid="command-error">
      {commandFailureText(error)}
    </Alert>
  );
}

/** The answer of `file`: a folder listing, which the Storage page shows best. */
export function ListingAnswer({ deviceId, listing }: { deviceId: string; listing: FileListing }) {
  const path = listing.request.parameters.path;
  return (
    <Card withBorder radius="md" data-testid="command-answer">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {listingSummary(listing)}{' '}
        <Anchor component={Link} to={`/devices/${deviceId}/file?${new URLSearchParams({ path })}`} size="sm">
          Open it on the Storage page
        </Anchor>
      </Text>
    </Card>
  );
}
