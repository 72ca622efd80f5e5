import { RELEASE_NOTES_MAX, releaseBranches, releaseFormDefaults, releaseFormSchema, VERSION_MAX, type ReleaseBranch } from '@fleetlink/contract';
import { Alert, Button, Group, Select, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconInfoCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useNavigate } from '../../router/router';
import { ApiRequestError } from '../../app/api/api-error';
import { FormActions } from '../../app/forms/FormActions';
import { useBundleNames, useBundleVersions, useCreateRelease } from './release-api';
import { RolloutFields } from './RolloutFields';
import { PageTitle } from '../../app/a11y/PageTitle';

type ReleaseFormState = typeof releaseFormDefaults;

const branchOptions = releaseBranches.map((b) => ({ value: b, label: b }));
export const RELEASE_HINT =
  'Releases are sorted by version, and the latest version is deployed to devices. Devices pick a release by their branch: Stable devices the latest PRODUCTION release, Early access devices the latest ACCEPTANCE or PRODUCTION release.';

/** /agent/releases/new (SPEC §2 Release form; tabs hidden): Version, Branch, Notes, bundle rows; Cancel / Create release. */
export function ReleaseFormPage() {
  const navigate = useNavigate();
  const create = useCreateRelease();
  const names = useBundleNames();
  const form = useReleaseForm();
  const back = () => void navigate('/agent/releases');
  const submit = (values: ReleaseFormState) =>
    create.mutate(releaseFormSchema.parse(values), {
      onSuccess: back,
      onError: (err) => err instanceof ApiRequestError && err.fields && form.setErrors(err.fields),
    });
  const nameOptions = names.data ?? [];
  return (
    <form noValidate onSubmit={form.onSubmit(submit)}>
      <Stack maw={720}>
        <PageTitle title="Create a new release" size="h2" />
        <Alert variant="light" icon={<IconInfoCircle size={18} />}>
          {RELEASE_HINT}
        </Alert>
        <Group grow align="flex-start">
          <TextInput label="Version" required maxLength={VERSION_MAX} placeholder="1.2.3" {...form.getInputProps('version')} />
          <Select
            label="Branch"
            required
            data={branchOptions}
            allowDeselect={false}
            {...form.getInputProps('branch')}
            onChange={(value) => form.setFieldValue('branch', (value ?? 'PRODUCTION') as ReleaseBranch)}
          />
        </Group>
        <Textarea label="Notes" autosize minRows={2} maxLength={RELEASE_NOTES_MAX} {...form.getInputProps('notes')} />
        <Stack gap="xs">
          <Title order={2} size="h4">Bundles</Title>
          {form.values.bundles.map((_, i) => (
            <BundleRow key={form.key(`bundles.${i}`)} form={form} index={i} names={nameOptions} />
          ))}
          {typeof form.errors.bundles === 'string' ? <Alert color="red">{form.errors.bundles}</Alert> : null}
          <Group>
            <Button variant="default" leftSection={<IconPlus size={16} />} onClick={() => form.insertListItem('bundles', { name: '', version: '' })}>
              Add bundle
            </Button>
          </Group>
        </Stack>
        <RolloutFields form={form} />
        <FormActions onCancel={back} saving={create.isPending} submitLabel="Create release" />
      </Stack>
    </form>
  );
}

const useReleaseForm = () =>
  useForm<ReleaseFormState>({
    mode: 'controlled',
    initialValues: {
      ...releaseFormDefaults,
      bundles: releaseFormDefaults.bundles.map((b) => ({ ...b })),
      rollout: { ...releaseFormDefaults.rollout, waves: releaseFormDefaults.rollout.waves.map((w) => ({ ...w })) },
    },
    validate: schemaResolver(releaseFormSchema, { sync: true }),
    // A field says what is wrong as soon as it is dirty, as every form does (SPEC §5).
    validateInputOnChange: true,
  });
type ReleaseFormApi = ReturnType<typeof useReleaseForm>;

/** One bundle of the release: choosing a name resets the version and loads that bundle's versions. */
function BundleRow({ form, index, names }: { form: ReleaseFormApi; index: number; names: string[] }) {
  const name = form.values.bundles[index]?.name ?? '';
  const versions = useBundleVersions(name);
  return (
    <Group align="flex-start" wrap="nowrap" data-testid="release-bundle-row">
      <Select
        label="Name"
        required
        searchable
        data={names}
        style={{ flex: 1 }}
        {...form.getInputProps(`bundles.${index}.name`)}
        value={name || null}
        onChange={(value) => {
          form.setFieldValue(`bundles.${index}.name`, value ?? '');
          form.setFieldValue(`bundles.${index}.version`, '');
        }}
      />
      <Select
        label="Version"
        required
        data={versions.data ?? []}
        disabled={!name}
        style={{ flex: 1 }}
        {...form.getInputProps(`bundles.${index}.version`)}
        // null, not '': a Select shows its last choice for a value it does not list.
        value={form.values.bundles[index]?.version || null}
        onChange={(value) => form.setFieldValue(`bundles.${index}.version`, value ?? '')}
      />
      <Button variant="subtle" color="red" mt={25} leftSection={<IconTrash size={16} />} onClick={() => form.removeListItem('bundles', index)}>
        Remove bundle
      </Button>
    </Group>
  );
}
