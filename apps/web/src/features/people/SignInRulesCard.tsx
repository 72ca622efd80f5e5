import { Card, Stack, Switch, Text, Title } from '@mantine/core';
import { useAccountSettings, useChangeAccountSettings } from './people-api';

/**
 * The realm's sign-in rules (issue 72): whether every ADMIN signs in with a second factor. One who
 * has none sets it up at their next sign-in; sessions open now go on until they end.
 */
export function SignInRulesCard() {
  const settings = useAccountSettings();
  const change = useChangeAccountSettings();
  const required = settings.data?.adminTwoFactorRequired ?? false;
  return (
    <Card withBorder padding="lg">
      <Stack gap="xs">
        <Title order={2} size="h5">
          Sign-in rules
        </Title>
        <Switch
          label="Administrators must use two-factor authentication"
          description="An administrator without it sets up an authenticator app at their next sign-in."
          checked={required}
          disabled={!settings.data || change.isPending}
          onChange={(e) => change.mutate({ adminTwoFactorRequired: e.currentTarget.checked })}
        />
        {change.isSuccess ? <Text size="sm">{required ? 'Required from each administrator’s next sign-in.' : 'No longer required.'}</Text> : null}
      </Stack>
    </Card>
  );
}
