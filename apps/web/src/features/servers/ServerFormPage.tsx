import { Alert, Loader, Stack } from '@mantine/core';
import { useNavigate, useParams } from '../../router/router';
import { ConfirmButton } from '../../app/forms/ConfirmButton';
import { ServerForm } from './ServerForm';
import { useDeleteServer, useSaveServer, useServer } from './server-api';
import { PageTitle } from '../../app/a11y/PageTitle';

/** /servers/new: 'Register new server'. */
export function ServerCreatePage() {
  const navigate = useNavigate();
  const save = useSaveServer(undefined);
  return (
    <Stack>
      <PageTitle title="Register new server" size="h2" />
      <ServerForm
        submitLabel="Save"
        saving={save.isPending}
        onCancel={() => navigate('/servers')}
        onSubmit={(v) => save.mutate(v, { onSuccess: () => navigate('/servers') })}
      />
    </Stack>
  );
}

/** /servers/{id}: 'Update server', with Remove ('Delete server?'); both return to /servers. */
export function ServerEditPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data, isPending, isError } = useServer(id);
  const save = useSaveServer(id);
  const remove = useDeleteServer(id);
  if (isPending) return <Loader />;
  if (isError || !data) return <Alert color="red">Server not found.</Alert>;
  return (
    <Stack>
      <PageTitle title="Update server" size="h2" />
      <ServerForm
        key={data.id}
        initial={data}
        submitLabel="Save"
        saving={save.isPending}
        onCancel={() => navigate('/servers')}
        onSubmit={(v) => save.mutate(v, { onSuccess: () => navigate('/servers') })}
        extra={
          <ConfirmButton color="red" variant="light" question="Delete server?" onConfirm={() => remove.mutateAsync().then(() => navigate('/servers'))}>
            Remove
          </ConfirmButton>
        }
      />
    </Stack>
  );
}
