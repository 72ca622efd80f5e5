import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';

/** Plain not-found page; also stands in for pages whose capability is not built yet. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Stack gap="sm" py="xl" maw={640}>
      <Title order={1}>Page not found</Title>
      <Text c="dimmed">
        There is no page at <Text span ff="monospace">{pathname}</Text>.
      </Text>
      <Anchor component={Link} to="/">
        Back to home
      </Anchor>
    </Stack>
  );
}
