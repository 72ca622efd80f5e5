import { rolloutFormDefaults, rolloutFormSchema, type Release, type RolloutForm } from '@fleetlink/contract';
import { Button, Modal, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { z } from 'zod';
import { ApiRequestError } from '../../app/api/api-error';
import { FormActions } from '../../app/forms/FormActions';
import { useSetRollout } from './release-api';
import { RolloutFields } from './RolloutFields';

const schema = z.object({ rollout: rolloutFormSchema });

/** "Rollout…" on the releases list: an existing release gets waves (or goes to every device at once). */
export function RolloutModalButton({ release }: { release: Release }) {
  const [opened, { open, close }] = useDisclosure(false);
  const set = useSetRollout();
  const form = useForm<{ rollout: RolloutForm }>({
    mode: 'controlled',
    initialValues: { rollout: { ...rolloutFormDefaults, mode: 'waves', waves: rolloutFormDefaults.waves.map((w) => ({ ...w })) } },
    validate: schemaResolver(schema, { sync: true }),
    validateInputOnChange: true,
  });
  const name = `${release.branch} ${release.version}`;
  const submit = ({ rollout }: { rollout: RolloutForm }) =>
    set.mutate(
      { release, rollout: rolloutFormSchema.parse(rollout) },
      {
        onSuccess: close,
        // The console names the body's fields; here they sit under `rollout`.
        onError: (err) => err instanceof ApiRequestError && err.fields && form.setErrors(Object.fromEntries(Object.entries(err.fields).map(([k, v]) => [`rollout.${k}`, v]))),
      },
    );
  return (
    <>
      <Button size="compact-sm" variant="light" onClick={open} aria-label={`Rollout of ${name}`}>
        Rollout…
      </Button>
      <Modal opened={opened} onClose={close} title={`Rollout of ${name}`} size="xl">
        <form noValidate onSubmit={form.onSubmit(submit)}>
          <Stack>
            <RolloutFields form={form} />
            <FormActions onCancel={close} saving={set.isPending} submitLabel={form.values.rollout.mode === 'waves' ? 'Start rollout' : 'Release to all'} justify="flex-end" />
          </Stack>
        </form>
      </Modal>
    </>
  );
}

