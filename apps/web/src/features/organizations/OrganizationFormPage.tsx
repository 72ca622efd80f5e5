import { Loader, Stack, Title } from '@mantine/core';
import { useNavigate, useParams } from '../../router/router';
import { AppBreadcrumbs } from '../../app/breadcrumbs/AppBreadcrumbs';
import { useOrganization, useSaveOrganization } from './organization-api';
import { OrganizationForm } from './OrganizationForm';
import { PageTitle } from '../../app/a11y/PageTitle';

/** /organizations/new (create) */
export function OrganizationCreatePage() {
  const navigate = useNavigate();
  const save = useSaveOrganization(undefined);
  return (
    <Stack>
      <AppBreadcrumbs items={[{ label: 'My Organizations', to: '/organizations' }, { label: 'New organization' }]} />
      <PageTitle title="Create new organization" />
      <OrganizationForm
        submitLabel="Create organization"
        saving={save.isPending}
        onCancel={() => navigate('/organizations')}
        onSubmit={(values) => save.mutate(values, { onSuccess: () => navigate('/organizations') })}
      />
    </Stack>
  );
}

/** /organizations/{id}/edit (update), inside the organization's tabs. */
export function OrganizationEditPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { data } = useOrganization(id);
  const save = useSaveOrganization(id);
  if (!data) return <Loader />;
  return (
    <Stack>
      <Title order={2}>Update organization</Title>
      <OrganizationForm
        key={data.id}
        initial={data}
        submitLabel="Update organization"
        saving={save.isPending}
        // Back where the person came from: the organization's own page (issue 59), not the list.
        onCancel={() => navigate(`/organizations/${data.id}`)}
        onSubmit={(values) => save.mutate(values, { onSuccess: () => navigate('/organizations') })}
      />
    </Stack>
  );
}
