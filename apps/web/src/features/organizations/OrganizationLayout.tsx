import { Alert, Group, Loader, Stack, Text } from '@mantine/core';
import { IconBell, IconEdit, IconFileInvoice, IconHistory, IconInfoCircle, IconUsers, IconWorldWww } from '@tabler/icons-react';
import { Outlet, useLocation, useParams } from '../../router/router';
import { AppBreadcrumbs } from '../../app/breadcrumbs/AppBreadcrumbs';
import { entityLabel } from '../../app/format/entity-label';
import { TabBar } from '../../app/tab-bar/TabBar';
import { tabbedTitle, type TabEntry } from '../../app/tab-bar/tab-entry';
import { canManage, useOrganization } from './organization-api';
import { OrganizationTypeIcon } from './OrganizationTypeIcon';
import { PageTitle } from '../../app/a11y/PageTitle';

/** /organizations/{id}: header and tabs (Summary, Members, Invoices, Domains; Activity, Alerts and Edit for managers) around the tab pages. */
export function OrganizationLayout() {
  const { id = '' } = useParams();
  const { pathname } = useLocation();
  const { data, isPending, isError } = useOrganization(id);
  const base = `/organizations/${id}`;
  const tabs: TabEntry[] = [
    { routerLink: base, label: 'Summary', icon: IconInfoCircle, exact: true },
    { routerLink: `${base}/members`, label: 'Members', icon: IconUsers },
    { routerLink: `${base}/invoices`, label: 'Invoices', icon: IconFileInvoice },
    { routerLink: `${base}/domain`, label: 'Domains', icon: IconWorldWww },
    ...(data && canManage(data.role)
      ? [
          { routerLink: `${base}/activity`, label: 'Activity', icon: IconHistory },
          { routerLink: `${base}/alerts`, label: 'Alerts', icon: IconBell },
          { routerLink: `${base}/edit`, label: 'Edit', icon: IconEdit },
        ]
      : []),
  ];

  return (
    <Stack>
      <AppBreadcrumbs items={[{ label: 'My Organizations', to: '/organizations' }, { label: entityLabel({ id, name: data?.name }) }]} />
      {isPending ? <Loader /> : null}
      {isError ? (
        <Alert color="red" title="Organization not found">
          This organization does not exist or you are not a member of it.
        </Alert>
      ) : null}
      {data ? (
        <>
          <Group gap="sm" wrap="nowrap">
            <OrganizationTypeIcon type={data.type} size={28} />
            <PageTitle title={tabbedTitle(tabs, pathname, data.name)} style={{ overflowWrap: 'anywhere' }}>
              {data.name}
            </PageTitle>
            <Text c="dimmed" size="sm">
              {data.role}
            </Text>
          </Group>
          <TabBar tabs={tabs} label="Organization sections" />
          <Outlet />
        </>
      ) : null}
    </Stack>
  );
}
