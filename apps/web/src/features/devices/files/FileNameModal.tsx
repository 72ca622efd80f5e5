import { fileNameFormSchema } from '@fleetlink/contract';
import { Modal, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useEffect } from 'react';
import { FormActions } from '../../../app/forms/FormActions';

interface FileNameModalProps {
  opened: boolean;
  title: string;
  submitLabel: string;
  initialName?: string;
  pending: boolean;
  onClose: () => void;
  /** Resolves when the device made the change; a failure keeps the dialog open (the toast says why). */
  onSubmit: (name: string) => Promise<unknown>;
}

/** The one-field dialog of New folder and Rename, with the contract's messages for the name. */
export function FileNameModal({ opened, title, submitLabel, initialName = '', pending, onClose, onSubmit }: FileNameModalProps) {
  const form = useForm({ mode: 'controlled', initialValues: { name: initialName }, validate: schemaResolver(fileNameFormSchema, { sync: true }) });
  useEffect(() => {
    if (opened) form.setValues({ name: initialName });
  }, [opened, initialName]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form
        noValidate
        onSubmit={form.onSubmit(async ({ name }) => {
          try {
            await onSubmit(name.trim());
            onClose();
          } catch {
            // The toast tells why; the name stays for a second try.
          }
        })}
      >
        <Stack gap="lg">
          <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
          <FormActions onCancel={onClose} saving={pending} submitLabel={submitLabel} justify="flex-end" />
        </Stack>
      </form>
    </Modal>
  );
}
