import {
  DEVICE_DESCRIPTION_MAX,
  DEVICE_NAME_MAX,
  deviceBranchLabel,
  deviceFormDefaults,
  deviceFormSchema,
  type DeviceForm as DeviceFormValues,
  type DeviceOrganizationOption,
} from '@fleetlink/contract';
import { Group, Radio, Select, Stack, TagsInput, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useEffect } from 'react';
import { FormActions } from '../../../app/forms/FormActions';

export interface DeviceFormState {
  organization: string;
  name: string;
  description: string;
  branch: 'PRODUCTION' | 'ACCEPTANCE';
  tags: string[];
}

interface DeviceFormProps {
  initial?: DeviceFormState;
  organizations: DeviceOrganizationOption[];
  tagSuggestions: string[];
  submitLabel: string;
  saving: boolean;
  onSubmit: (values: DeviceFormValues) => void;
  onCancel: () => void;
}

/**
 * The device form (SPEC §5) validated by the contract's schema, the same one the API applies.
 * A field shows its error once it was changed (not merely tabbed past, issue 71); submit validates all
 * and is blocked while invalid.
 */
export function DeviceForm({ initial, organizations, tagSuggestions, submitLabel, saving, onSubmit, onCancel }: DeviceFormProps) {
  const form = useForm<DeviceFormState>({
    mode: 'controlled',
    initialValues: initial ?? { ...deviceFormDefaults, organization: organizations[0]?.id ?? '' },
    validate: schemaResolver(deviceFormSchema, { sync: true }),
    validateInputOnChange: true,
  });

  // A new device goes to the first organization the user may create in, once those are known.
  useEffect(() => {
    if (!initial && !form.values.organization && organizations[0]) form.setFieldValue('organization', organizations[0].id);
  }, [organizations]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <form noValidate onSubmit={form.onSubmit((values) => onSubmit(deviceFormSchema.parse(values)))}>
      <Stack maw={640}>
        <Select
          label="Organization"
          required
          data={organizations.map((o) => ({ value: o.id, label: o.type === 'PERSONAL' ? `${o.name} (personal)` : o.name }))}
          placeholder="Select an organization"
          allowDeselect={false}
          {...form.getInputProps('organization')}
          onChange={(value) => form.setFieldValue('organization', value ?? '')}
        />
        <TextInput label="Name" required maxLength={DEVICE_NAME_MAX} {...form.getInputProps('name')} />
        <Textarea label="Description" autosize minRows={3} maxLength={DEVICE_DESCRIPTION_MAX} {...form.getInputProps('description')} />
        <Radio.Group label="Branch" required {...form.getInputProps('branch')}>
          <Group mt="xs">
            {(['PRODUCTION', 'ACCEPTANCE'] as const).map((b) => (
              <Radio key={b} value={b} label={deviceBranchLabel[b]} />
            ))}
          </Group>
        </Radio.Group>
        <TagsInput
          label="Tags"
          placeholder="Type a tag and press Enter"
          data={tagSuggestions}
          // Opened above the field, a few at a time: below it they covered the form's buttons on a
          // phone (issue 59), which then took a tap elsewhere first.
          limit={5}
          comboboxProps={{ position: 'top', middlewares: { flip: false, shift: true } }}
          clearable
          {...form.getInputProps('tags')}
          error={Object.entries(form.errors).find(([k]) => k === 'tags' || k.startsWith('tags.'))?.[1]}
        />
        <FormActions justify="flex-end" onCancel={onCancel} saving={saving} submitLabel={submitLabel} />
      </Stack>
    </form>
  );
}
