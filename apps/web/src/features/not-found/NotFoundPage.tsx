import { Anchor, Stack, Text } from '@mantine/core';
import { Link, useLocation } from '../../router/router';
import { PageTitle } from '../../app/a11y/PageTitle';

/** Plain not-found page; also stands in for pages whose capability is not built yet. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Stack gap="sm" py="xl" maw={640}>
      <PageTitle title="Page not found" />
      <Text c="dimmed">
        There is no page at <Text span ff="monospace">{pathname}</Text>.
      </Text>
      <Anchor component={Link} to="/">
        Back to home
      </Anchor>
    </Stack>
  );
}
