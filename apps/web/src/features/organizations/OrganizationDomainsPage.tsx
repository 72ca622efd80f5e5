import { organizationDomainFormSchema, type DomainStatus } from '@fleetlink/contract';
import { Badge, Button, Card, Code, Group, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconTrash, IconWorldPlus } from '@tabler/icons-react';
import { useParams } from '../../router/router';
import { ConfirmButton } from '../../app/forms/ConfirmButton';
import { since } from './format';
import { canManage, useAddDomain, useOrganization, useRevokeDomain } from './organization-api';
import { zodValidate } from '../../app/forms/zod-validate';

const statusColor: Record<DomainStatus, string> = { PENDING: 'gray', ACTIVE: 'green', FAILED: 'red' };

function RegisterDomainForm({ organizationId, proxyHost }: { organizationId: string; proxyHost: string }) {
  const add = useAddDomain(organizationId);
  const form = useForm<{ domain: string }>({
    mode: 'controlled',
    initialValues: { domain: '' },
    validate: zodValidate<{ domain: string }>(organizationDomainFormSchema),
    validateInputOnChange: true,
  });
  return (
    <Card withBorder padding="lg">
      <form noValidate onSubmit={form.onSubmit((values) => add.mutate(values, { onSuccess: () => form.reset() }))}>
        <Title order={2} size="h5" mb="xs">
          Register new custom domain
        </Title>
        <Text size="sm" mb="sm">
          Create a CNAME record for your domain pointing to <Code data-testid="proxy-host">{proxyHost}</Code>, and prove the domain is
          yours with the TXT record shown once it is registered. The domain becomes ACTIVE once both records are found; it is checked
          on registration and then periodically.
        </Text>
        <Group align="flex-start">
          <TextInput label="Domain" required placeholder="tunnels.example.com" style={{ flex: 1, minWidth: 220 }} {...form.getInputProps('domain')} />
          <Button type="submit" mt={25} loading={add.isPending} leftSection={<IconWorldPlus size={16} />}>
            Register domain
          </Button>
        </Group>
      </form>
    </Card>
  );
}

/** Domains tab: custom domains with their check status and the TXT record that proves them; managers register and revoke them. */
export function OrganizationDomainsPage() {
  const { id = '' } = useParams();
  const { data } = useOrganization(id);
  const revoke = useRevokeDomain(id);
  if (!data) return null;
  const manage = canManage(data.role);

  return (
    <Stack>
      {data.domains.length ? (
        <Table verticalSpacing="sm" aria-label="Custom domains">
          <Table.Tbody>
            {data.domains.map((d) => (
              <Table.Tr key={d.id} data-testid="domain-row">
                <Table.Td>
                  <Text>{d.domain}</Text>
                  <Text size="xs" c="dimmed">
                    {since(d.creationDate)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Tooltip label={d.statusReason ?? ''} disabled={!d.statusReason} multiline maw={360}>
                    <Badge color={statusColor[d.status]} variant="light">
                      {d.status}
                    </Badge>
                  </Tooltip>
                  {d.statusReason ? (
                    <Text size="xs" c="dimmed">
                      {d.statusReason}
                    </Text>
                  ) : null}
                  {d.proven ? null : (
                    <Text size="xs" mt={4} data-testid="domain-challenge">
                      TXT record <Code>{d.challenge.name}</Code> with the value <Code>{d.challenge.value}</Code>
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  {manage ? (
                    <ConfirmButton
                      size="xs"
                      color="red"
                      variant="subtle"
                      leftSection={<IconTrash size={14} />}
                      question={`Revoke domain ${d.domain}?`}
                      onConfirm={() => revoke.mutateAsync(d.id)}
                    >
                      Remove custom domain
                    </ConfirmButton>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">No custom domains yet.</Text>
      )}
      {manage ? (
        <RegisterDomainForm organizationId={id} proxyHost={data.proxyHost} />
      ) : (
        <Text size="sm" c="dimmed">
          Custom domains point to <Code>{data.proxyHost}</Code> with a CNAME record; the creator or an administrator registers them.
        </Text>
      )}
    </Stack>
  );
}
