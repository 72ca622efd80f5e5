import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** A page that crashed while rendering; the rest of the console keeps working. */
export function RouteErrorPage({ error }: { error: unknown }) {
  console.error(error);
  return (
    <Stack maw={640} mx="auto" py="xl">
      <Title order={2}>This page failed to load</Title>
      <Alert color="red" title="Unexpected error">
        <Text size="sm">{error instanceof Error ? error.message : 'Something went wrong. Please try again.'}</Text>
      </Alert>
      <Anchor component={Link} to="/">
        Back to home
      </Anchor>
    </Stack>
  );
}
