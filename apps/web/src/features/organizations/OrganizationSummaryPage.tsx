import { countryName } from '@fleetlink/contract';
import { Anchor, Badge, Button, Card, Group, List, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from '../../router/router';
import { ConfirmButton } from '../../app/forms/ConfirmButton';
import { MissingDetailsNotice } from './MissingDetailsNotice';
import { canManage, useDeleteOrganization, useOrganization } from './organization-api';
import { OrganizationTypeIcon, organizationTypeLabel } from './OrganizationTypeIcon';
import { ORGANIZATION_HAS_DEVICES } from '@fleetlink/contract';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="div">{children || '-'}</Text>
    </div>
  );
}

/** Summary tab: the organization's details, devices, members and domains; edit and delete for managers. */
export function OrganizationSummaryPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data } = useOrganization(id);
  const remove = useDeleteOrganization(id);
  if (!data) return null;
  const manage = canManage(data.role);
  const hasDevices = data.devicesCount > 0;

  return (
    <Stack>
      <MissingDetailsNotice organization={data} canEdit={manage} />
      <Card withBorder padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Field label="Type">
            <Group gap={6}>
              <OrganizationTypeIcon type={data.type} size={16} /> {organizationTypeLabel[data.type]}
            </Group>
          </Field>
          <Field label="Name">{data.name}</Field>
          <Field label="Address">{[data.address, countryName(data.country)].filter(Boolean).join(', ')}</Field>
          <Field label="Telephone">{data.telephone}</Field>
          <Field label="Email">{data.email ? <Anchor href={`mailto:${data.email}`}>{data.email}</Anchor> : null}</Field>
          {data.type === 'COMPANY' ? <Field label="VAT">{data.vat}</Field> : null}
          <Field label="Devices">
            <span data-testid="devices-count">{data.devicesCount}</span>
          </Field>
        </SimpleGrid>
        {manage ? (
          <Group mt="lg">
            <Button component={Link} to={`/organizations/${id}/edit`} leftSection={<IconEdit size={16} />} variant="light">
              Edit
            </Button>
            {hasDevices ? (
              <Tooltip label={ORGANIZATION_HAS_DEVICES}>
                <Button color="red" variant="light" leftSection={<IconTrash size={16} />} data-disabled aria-disabled="true" onClick={(e) => e.preventDefault()}>
                  Delete
                </Button>
              </Tooltip>
            ) : (
              <ConfirmButton
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} />}
                question={`Are you sure you want to remove the organization "${data.name}"?`}
                onConfirm={() => remove.mutateAsync().then(() => navigate('/organizations'))}
              >
                Delete
              </ConfirmButton>
            )}
          </Group>
        ) : null}
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Card withBorder padding="lg">
          <Title order={2} size="h5" mb="xs">
            Members ({data.users.length})
          </Title>
          <List spacing={4} listStyleType="none">
            {data.users.map((u) => (
              <List.Item key={u.id}>
                <Group gap={6}>
                  <Text size="sm">{u.email}</Text>
                  <Badge size="xs" variant="light">
                    {u.role}
                  </Badge>
                </Group>
              </List.Item>
            ))}
          </List>
        </Card>
        <Card withBorder padding="lg">
          <Title order={2} size="h5" mb="xs">
            Custom domains ({data.domains.length})
          </Title>
          {data.domains.length ? (
            <List spacing={4} listStyleType="none">
              {data.domains.map((d) => (
                <List.Item key={d.id}>
                  <Group gap={6}>
                    <Text size="sm">{d.domain}</Text>
                    <Badge size="xs" variant="light">
                      {d.status}
                    </Badge>
                  </Group>
                </List.Item>
              ))}
            </List>
          ) : (
            <Text size="sm" c="dimmed">
              No custom domains.
            </Text>
          )}
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
