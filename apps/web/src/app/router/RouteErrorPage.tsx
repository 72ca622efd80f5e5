import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { Link } from '../../router/router';
import { PageTitle } from '../a11y/PageTitle';

/** A page that crashed while rendering; the rest of the console keeps working. */
export function RouteErrorPage({ error }: { error: unknown }) {
  console.error(error);
  return (
    <Stack maw={640} mx="auto" py="xl">
      <PageTitle title="This page failed to load" size="h2" />
      <Alert color="red" title="Unexpected error">
        <Text size="sm">{error instanceof Error ? error.message : 'Something went wrong. Please try again.'}</Text>
      </Alert>
      <Anchor component={Link} to="/">
        Back to home
      </Anchor>
    </Stack>
  );
}
