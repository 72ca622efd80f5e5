import {
  MONITOR_NAME_MAX,
  MONITOR_PATH_MAX,
  monitorFormDefaults,
  monitorFormSchema,
  monitorTypeLabel,
  monitorTypes,
  type MonitorType,
} from '@fleetlink/contract';
import { Select, Stack, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useNavigate, useParams, useSearchParams } from '../../../router/router';
import { ApiRequestError } from '../../../app/api/api-error';
import { FormActions } from '../../../app/forms/FormActions';
import { NotFoundPage } from '../../not-found/NotFoundPage';
import { useCurrentDevice } from '../detail/current-device';
import { useSaveMonitor } from './monitors-api';

interface MonitorFormState {
  name: string;
  type: MonitorType;
  path: string;
}

const typeOptions = monitorTypes.map((t) => ({ value: t, label: monitorTypeLabel[t] }));

/** The last segment of a device path (`/var/log/app.log` → `app.log`), whatever its separators. */
const lastSegment = (p: string) => p.split(/[\\/]/).filter(Boolean).pop() ?? '';

/**
 * /devices/{id}/monitor/new and /devices/{id}/monitor/{monitorId} (SPEC §2 Monitor form: Name, Type,
 * Path), validated by the contract's schema like the API. From the Storage page's row menu, `?path=`
 * fills the path in, and the name with the file's own.
 */
export function MonitorFormPage() {
  const device = useCurrentDevice();
  const { monitorId } = useParams();
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const existing = monitorId ? device.monitors.find((m) => m.id === monitorId) : undefined;
  const save = useSaveMonitor(device.id, existing?.id);
  const fromStorage = query.get('path') ?? '';
  const form = useForm<MonitorFormState>({
    mode: 'controlled',
    initialValues: existing
      ? { name: existing.name, type: existing.type, path: existing.path }
      : { ...monitorFormDefaults, path: fromStorage, name: lastSegment(fromStorage) },
    validate: schemaResolver(monitorFormSchema, { sync: true }),
    validateInputOnChange: true,
  });
  if (monitorId && !existing) return <NotFoundPage />;

  const back = () => void navigate(`/devices/${device.id}/monitor`);
  const submit = (values: MonitorFormState) =>
    save.mutate(monitorFormSchema.parse(values), {
      onSuccess: back,
      // A name taken on this device is said under the field as well as in the toast.
      onError: (err) => err instanceof ApiRequestError && err.fields && form.setErrors(err.fields),
    });

  return (
    <form noValidate onSubmit={form.onSubmit(submit)}>
      <Stack maw={640}>
        <Title order={2} size="h3">{existing ? 'Edit monitor' : 'New monitor'}</Title>
        <TextInput label="Name" required maxLength={MONITOR_NAME_MAX} {...form.getInputProps('name')} />
        <Select
          label="Type"
          required
          data={typeOptions}
          allowDeselect={false}
          {...form.getInputProps('type')}
          onChange={(value) => form.setFieldValue('type', (value ?? 'UPDATE') as MonitorType)}
        />
        <TextInput
          label="Path"
          required
          maxLength={MONITOR_PATH_MAX}
          placeholder="/var/log/app.log"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          description="A file or folder on the device, from its root."
          {...form.getInputProps('path')}
        />
        <FormActions justify="flex-end" onCancel={back} saving={save.isPending} submitLabel={existing ? 'Update monitor' : 'Create monitor'} />
      </Stack>
    </form>
  );
}
