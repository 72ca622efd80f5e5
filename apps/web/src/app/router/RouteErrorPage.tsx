import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { NotFoundPage } from '../../features/not-found/NotFoundPage';

/** A page that crashed while rendering; the rest of the console keeps working. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
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
