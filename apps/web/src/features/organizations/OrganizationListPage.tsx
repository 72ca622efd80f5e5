import { Anchor, Button, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight, IconPlus } from '@tabler/icons-react';
import { Link } from '../../router/router';
import { AppBreadcrumbs } from '../../app/breadcrumbs/AppBreadcrumbs';
import { useMyOrganizations } from './organization-api';
import { OrganizationTypeIcon } from './OrganizationTypeIcon';
import { PageTitle } from '../../app/a11y/PageTitle';

/** /organizations: one card per organization the user is a member of. */
export function OrganizationListPage() {
  const { data, isPending, isError } = useMyOrganizations();
  return (
    <Stack>
      <AppBreadcrumbs items={[{ label: 'My Organizations' }]} />
      <Group justify="space-between">
        <PageTitle title="My Organizations" />
        <Button component={Link} to="/organizations/new" leftSection={<IconPlus size={16} />}>
          Create new organization
        </Button>
      </Group>
      {isPending ? <Loader /> : null}
      {isError ? <Text c="red">The organizations could not be loaded.</Text> : null}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        {data?.map((org) => (
          <Card key={org.id} withBorder padding="lg" data-testid="organization-card">
            <Stack gap="xs" h="100%">
              <Group gap="xs" wrap="nowrap">
                <OrganizationTypeIcon type={org.type} />
                <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
                  {org.name}
                </Title>
              </Group>
              {org.address ? <Text size="sm">{org.address}</Text> : null}
              {org.telephone ? <Text size="sm">{org.telephone}</Text> : null}
              {org.email ? (
                <Anchor href={`mailto:${org.email}`} size="sm">
                  {org.email}
                </Anchor>
              ) : null}
              <Anchor component={Link} to={`/organizations/${org.id}`} mt="auto" size="sm">
                <Group gap={4}>
                  More info <IconArrowRight size={14} />
                </Group>
              </Anchor>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
