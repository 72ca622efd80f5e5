import {
  euCountries,
  organizationFormSchema,
  organizationLabels,
  organizationLimits,
  type OrganizationDetail,
  type OrganizationFormInput,
} from '@fleetlink/contract';
import { Group, Radio, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { organizationTypeLabel } from './OrganizationTypeIcon';
import { zodValidate } from '../../app/forms/zod-validate';
import { FormActions } from '../../app/forms/FormActions';

interface FormValues {
  type: 'PERSONAL' | 'COMPANY';
  name: string;
  country: string;
  address: string;
  telephone: string;
  email: string;
  vat: string;
}

const countryOptions = euCountries().map((c) => ({ value: c.code, label: c.name }));

export const formValuesOf = (org?: OrganizationDetail): FormValues => ({
  type: org?.type ?? 'PERSONAL',
  name: org?.name ?? '',
  country: org?.country ?? '',
  address: org?.address ?? '',
  telephone: org?.telephone ?? '',
  email: org?.email ?? '',
  vat: org?.vat ?? '',
});

interface OrganizationFormProps {
  initial?: OrganizationDetail;
  submitLabel: string;
  saving: boolean;
  onSubmit: (values: OrganizationFormInput) => void;
  onCancel: () => void;
}

/**
 * SPEC §5 Organization form. Errors appear once a field is changed (Mantine validates that
 * field then); submitting validates every field and is blocked while any is invalid.
 */
export function OrganizationForm({ initial, submitLabel, saving, onSubmit, onCancel }: OrganizationFormProps) {
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: formValuesOf(initial),
    validate: zodValidate<FormValues>(organizationFormSchema),
    validateInputOnChange: true,
  });
  const company = form.values.type === 'COMPANY';

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) =>
        onSubmit({ ...values, country: values.country as OrganizationFormInput['country'], vat: company ? values.vat : null }),
      )}
    >
      <Stack maw={640}>
        <Radio.Group label={organizationLabels.type} required {...form.getInputProps('type')}>
          <Group mt="xs">
            {(['PERSONAL', 'COMPANY'] as const).map((t) => (
              <Radio key={t} value={t} label={organizationTypeLabel[t]} />
            ))}
          </Group>
        </Radio.Group>
        <TextInput
          label={organizationLabels.name}
          required
          description="The name is used for the invoice."
          maxLength={organizationLimits.name}
          {...form.getInputProps('name')}
        />
        <Select
          label={organizationLabels.country}
          required
          searchable
          data={countryOptions}
          placeholder="Select a country"
          {...form.getInputProps('country')}
          onChange={(value) => form.setFieldValue('country', value ?? '')}
        />
        <TextInput
          label={organizationLabels.address}
          required
          description="The address must include the postal code and the city."
          maxLength={organizationLimits.address}
          {...form.getInputProps('address')}
        />
        <TextInput
          label={organizationLabels.telephone}
          type="tel"
          description="Include the international prefix, e.g. +31."
          maxLength={organizationLimits.telephone}
          {...form.getInputProps('telephone')}
        />
        <TextInput label={organizationLabels.email} required type="email" maxLength={organizationLimits.email} {...form.getInputProps('email')} />
        {company ? (
          <TextInput
            label={organizationLabels.vat}
            description="The VAT number is needed for the invoices of companies in the EU."
            maxLength={organizationLimits.vat}
            {...form.getInputProps('vat')}
          />
        ) : null}
        <FormActions justify="flex-end" onCancel={onCancel} saving={saving} submitLabel={submitLabel} />
      </Stack>
    </form>
  );
}
