import { Anchor, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from '../../router/router';
import { PageTitle } from '../../app/a11y/PageTitle';

/** Shown in place of a page the user lacks a role for (the URL keeps what they asked for). */
export function AccessDeniedPage() {
  return (
    <Paper withBorder p="xl" maw={640} mx="auto" mt="xl" data-testid="access-denied">
      <Stack gap="md" align="flex-start">
        <ThemeIcon size={48} radius="xl" color="red" variant="light">
          <IconLock size={26} />
        </ThemeIcon>
        <PageTitle title="Unauthorised" />
        <Text>Sorry, you do not have the necessary authorization to access this content.</Text>
        <Text size="sm" c="dimmed">
          If you think you should have access, please{' '}
          <Anchor component={Link} to="/contact" size="sm" underline="always">
            contact us
          </Anchor>
          .
        </Text>
      </Stack>
    </Paper>
  );
}
