import { Alert, Button, Center, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';

interface StartupErrorProps {
  summary: string;
  detail?: string;
  actionLabel?: string;
  onAction?: () => void;
}

/**
 * The console could not start (no configuration, identity provider unreachable, failed sign-in).
 * It says so plainly and offers a way forward instead of leaving a blank page.
 */
export function StartupError({ summary, detail, actionLabel = 'Try again', onAction }: StartupErrorProps) {
  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" maw={520} w="100%">
        <Stack gap="md">
          <Title order={1} size="h2">
            Fleetlink could not start
          </Title>
          <Alert color="red" icon={<IconPlugConnectedX size={20} />} title={summary}>
            <Text size="sm">Sign-in is not available right now. Please try again in a moment.</Text>
          </Alert>
          {detail ? (
            <Text size="sm" c="dimmed">
              Details: <Code>{detail}</Code>
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button onClick={onAction ?? (() => window.location.reload())}>{actionLabel}</Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
