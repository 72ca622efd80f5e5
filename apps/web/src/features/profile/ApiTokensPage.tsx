import { apiTokenFormSchema, apiTokenLimits, apiTokenScopeLabels, apiTokenScopes, RealmRole, type ApiToken, type ApiTokenCreated, type ApiTokenScope } from '@fleetlink/contract';
import { Badge, Button, Card, Code, Group, MultiSelect, Radio, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ApiRequestError } from '../../app/api/api-error';
import { useSession } from '../../app/auth/useSession';
import { ConfirmButton } from '../../app/forms/ConfirmButton';
import { SecretOnce } from '../../app/forms/SecretOnce';
import { formatDayMonthTime } from '../../app/format/date-format';
import { useMyOrganizations } from '../organizations/organization-api';
import { useAllApiTokens, useCreateApiToken, useMyApiTokens, useRevokeApiToken } from './api-token-api';
import { PageTitle } from '../../app/a11y/PageTitle';
import { TableScroller } from '../../app/tables/TableScroller';
import { ActionsHeader } from '../../app/tables/ActionsHeader';

const NEVER = 'never';
const EXPIRY_DAYS = [7, 30, 90, 180, 365];

interface TokenValues {
  name: string;
  scope: ApiTokenScope;
  expiry: string;
  organizations: string[];
}

/** The name field's rule, as the API checks it. */
const nameError = (name: string) => apiTokenFormSchema.shape.name.safeParse(name).error?.issues[0]?.message ?? null;

const useTokenForm = () =>
  useForm<TokenValues>({
    mode: 'controlled',
    initialValues: { name: '', scope: 'READ', expiry: String(apiTokenLimits.defaultDays), organizations: [] },
    validate: { name: nameError },
    validateInputOnChange: true,
  });

/** Only for someone with organizations to list: a guest has none (and no USER role to list them with). */
function OrganizationLimitField({ form }: { form: ReturnType<typeof useTokenForm> }) {
  const organizations = useMyOrganizations();
  return (
    <MultiSelect
      label="Limited to organizations"
      description="Leave empty for every organization you belong to."
      placeholder={form.values.organizations.length ? undefined : 'All my organizations'}
      data={(organizations.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
      searchable
      clearable
      {...form.getInputProps('organizations')}
    />
  );
}

function CreateTokenCard({ noExpiryAllowed, onCreated }: { noExpiryAllowed: boolean; onCreated: (token: ApiTokenCreated) => void }) {
  const member = useSession().hasRole(RealmRole.User);
  const create = useCreateApiToken();
  const form = useTokenForm();
  const expiryOptions = [
    ...EXPIRY_DAYS.map((days) => ({ value: String(days), label: `${days} days` })),
    ...(noExpiryAllowed ? [{ value: NEVER, label: 'Never' }] : []),
  ];
  const submit = (values: TokenValues) =>
    create.mutate(
      {
        name: values.name,
        scope: values.scope,
        expiresInDays: values.expiry === NEVER ? null : Number(values.expiry),
        organizations: values.organizations,
      },
      {
        onSuccess: (created) => {
          form.reset();
          onCreated(created);
        },
        onError: (err) => err instanceof ApiRequestError && err.fields && form.setErrors({ ...err.fields, expiry: err.fields.expiresInDays }),
      },
    );
  return (
    <Card withBorder padding="lg">
      <form noValidate onSubmit={form.onSubmit(submit)} aria-label="Create an API token">
        <Stack gap="sm">
          <Title order={2} size="h5">
            Create a token
          </Title>
          <Group align="flex-start" grow>
            <TextInput label="Name" required maxLength={apiTokenLimits.name} placeholder="CI deploy" {...form.getInputProps('name')} />
            <Select label="Expires after" allowDeselect={false} data={expiryOptions} {...form.getInputProps('expiry')} />
          </Group>
          <Radio.Group label="Scope" {...form.getInputProps('scope')}>
            <Group mt={4}>
              {apiTokenScopes.map((scope) => (
                <Radio key={scope} value={scope} label={apiTokenScopeLabels[scope]} />
              ))}
            </Group>
          </Radio.Group>
          {member ? <OrganizationLimitField form={form} /> : null}
          <Group>
            <Button type="submit" loading={create.isPending} leftSection={<IconKey size={16} />}>
              Create token
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** The new token's secret, this once: the console keeps only its hash. */
function NewSecretCard({ token, onDone }: { token: ApiTokenCreated; onDone: () => void }) {
  return (
    <SecretOnce
      title={`Token ${token.name} created`}
      secret={token.secret}
      label="token"
      testId="new-api-token"
      secretTestId="new-api-token-secret"
      after={<Code block>{`curl -H "Authorization: Bearer ${token.secret}" ${window.location.origin}/api/me`}</Code>}
      onDone={onDone}
    >
      <Text size="sm">Copy it now: it is not shown again. Use it as a bearer token, e.g. in curl:</Text>
    </SecretOnce>
  );
}

const when = (iso: string | null, otherwise: string) => (iso ? formatDayMonthTime(new Date(iso)) : otherwise);

function Expiry({ token }: { token: ApiToken }) {
  if (!token.expiresAt) return <Text size="sm">Never</Text>;
  const expired = Date.parse(token.expiresAt) <= Date.now();
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm">{when(token.expiresAt, '')}</Text>
      {expired ? (
        <Badge size="sm" color="red" variant="light">
          Expired
        </Badge>
      ) : null}
    </Group>
  );
}

function TokenTable({ tokens, label, withOwner }: { tokens: ApiToken[]; label: string; withOwner?: boolean }) {
  const revoke = useRevokeApiToken();
  if (!tokens.length) return <Text c="dimmed">No tokens.</Text>;
  return (
    <TableScroller label={label} minWidth={760}>
      <Table verticalSpacing="sm" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {withOwner ? <Table.Th>Owner</Table.Th> : null}
            <Table.Th>Name</Table.Th>
            <Table.Th>Scope</Table.Th>
            <Table.Th>Organizations</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Expires</Table.Th>
            <Table.Th>Last used</Table.Th>
            <ActionsHeader />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tokens.map((t) => (
            <Table.Tr key={t.id} data-testid="api-token-row">
              {withOwner ? <Table.Td>{t.owner.username ?? t.owner.subject}</Table.Td> : null}
              <Table.Td>{t.name}</Table.Td>
              <Table.Td>{apiTokenScopeLabels[t.scope]}</Table.Td>
              <Table.Td>{t.organizations ? t.organizations.map((o) => o.name ?? `${o.id} (deleted)`).join(', ') : 'All'}</Table.Td>
              <Table.Td>{when(t.createdAt, '')}</Table.Td>
              <Table.Td>
                <Expiry token={t} />
              </Table.Td>
              <Table.Td>{t.lastUsedAt ? `${when(t.lastUsedAt, '')} from ${t.lastUsedAddress ?? 'an unknown address'}` : 'Never used'}</Table.Td>
              <Table.Td ta="right">
                <ConfirmButton
                  size="xs"
                  color="red"
                  variant="subtle"
                  leftSection={<IconTrash size={14} />}
                  question={`Revoke token ${t.name}?`}
                  onConfirm={() => revoke.mutateAsync(t.id)}
                  aria-label={`Revoke token ${t.name}`}
                >
                  Revoke
                </ConfirmButton>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroller>
  );
}

/** /profile/api-tokens (issue 62): a person's tokens for scripts; a realm ADMIN also sees everyone's. */
export function ApiTokensPage() {
  const session = useSession();
  const admin = session.hasRole(RealmRole.Admin);
  const mine = useMyApiTokens();
  const all = useAllApiTokens(admin);
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  return (
    <Stack maw={1100}>
      <PageTitle title="API tokens" size="h2" />
      <Text c="dimmed">
        A token lets a script call the console’s API as you, with your roles, narrowed to what you choose here. Send it as{' '}
        <Code>Authorization: Bearer flt_…</Code>. Revoke a token as soon as it is no longer needed or may have leaked.
      </Text>
      {created ? <NewSecretCard token={created} onDone={() => setCreated(null)} /> : null}
      <CreateTokenCard noExpiryAllowed={mine.data?.noExpiryAllowed ?? false} onCreated={setCreated} />
      <Title order={2} size="h4">
        My tokens
      </Title>
      {mine.data ? <TokenTable tokens={mine.data.items} label="My API tokens" /> : null}
      {admin ? (
        <>
          <Title order={2} size="h4">
            Every user’s tokens
          </Title>
          {all.data ? <TokenTable tokens={all.data.items} label="Every user's API tokens" withOwner /> : null}
        </>
      ) : null}
    </Stack>
  );
}
