import {
  suggestTunnelPath,
  TUNNEL_CREDENTIAL_MAX,
  TUNNEL_HOST_MAX,
  TUNNEL_NAME_INPUT_MAX,
  TUNNEL_PATH_MAX,
  tunnelFormDefaults,
  tunnelFormSchema,
  tunnelModeLabel,
  tunnelModes,
  tunnelTypes,
  type Tunnel,
  type TunnelMode,
  type TunnelType,
} from '@fleetlink/contract';
import { Divider, Loader, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import { useNavigate, useParams } from '../../../router/router';
import { ApiRequestError } from '../../../app/api/api-error';
import { FormActions } from '../../../app/forms/FormActions';
import { NotFoundPage } from '../../not-found/NotFoundPage';
import { useCurrentDevice } from '../detail/current-device';
import { useSaveTunnel, useTunnelDomains, useTunnels } from './tunnels-api';

type TunnelFormState = Omit<typeof tunnelFormDefaults, 'port'> & { port: string };

const typeOptions = tunnelTypes.map((t) => ({ value: t, label: t }));
const modeOptions = tunnelModes.map((m) => ({ value: m, label: tunnelModeLabel[m] }));
/** The proxy's own domain has no id; the select needs a value for it. */
const OWN_DOMAIN = 'own';

const fromTunnel = (t: Tunnel): TunnelFormState => ({
  name: t.name,
  type: t.type,
  port: String(t.port),
  mode: t.mode,
  domainId: t.domainId,
  path: t.path ?? '',
  host: t.host,
  securityIp: t.securityIp ?? '',
  securityUsername: t.securityUsername ?? '',
  securityPassword: '',
});

/**
 * /devices/{id}/tunnels/new and /devices/{id}/tunnels/{tunnelId} (SPEC §2 Tunnel form): Type, Port,
 * Mode, Name; for HTTP an Advanced section (Domain, Path, Host) and a Security section (IP,
 * Username, Password), validated by the contract's schema like the API.
 */
export function TunnelFormPage() {
  const device = useCurrentDevice();
  const { tunnelId } = useParams();
  const tunnels = useTunnels(device.id);
  if (tunnelId && tunnels.isPending) return <Loader />;
  const existing = tunnelId ? tunnels.data?.find((t) => t.id === tunnelId) : undefined;
  if (tunnelId && !existing) return <NotFoundPage />;
  return <TunnelForm deviceId={device.id} existing={existing} />;
}

function TunnelForm({ deviceId, existing }: { deviceId: string; existing?: Tunnel }) {
  const navigate = useNavigate();
  const save = useSaveTunnel(deviceId, existing?.id);
  const domains = useTunnelDomains(deviceId);
  // A new tunnel's path follows its name until someone types one.
  const [pathTyped, setPathTyped] = useState(!!existing);
  const form = useForm<TunnelFormState>({
    mode: 'controlled',
    initialValues: existing ? fromTunnel(existing) : { ...tunnelFormDefaults, port: '', path: suggestTunnelPath(tunnelFormDefaults.name) },
    validate: schemaResolver(tunnelFormSchema, { sync: true }),
    // A field says what is wrong as soon as it is dirty, as every form does (SPEC §5).
    validateInputOnChange: true,
  });
  const http = form.values.type === 'HTTP';
  const back = () => void navigate(`/devices/${deviceId}/tunnels`);
  const submit = (values: TunnelFormState) =>
    save.mutate(tunnelFormSchema.parse(values), {
      onSuccess: back,
      // A port or path taken is said under its field as well as in the toast.
      onError: (err) => err instanceof ApiRequestError && err.fields && form.setErrors(err.fields),
    });
  const domainOptions = (domains.data ?? []).map((d) => ({ value: d.id ?? OWN_DOMAIN, label: d.domain }));

  return (
    <form noValidate onSubmit={form.onSubmit(submit)}>
      <Stack maw={640}>
        <Title order={2} size="h3">{existing ? 'Update tunnel' : 'Register new tunnel'}</Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Type"
            required
            data={typeOptions}
            allowDeselect={false}
            {...form.getInputProps('type')}
            onChange={(value) => form.setFieldValue('type', (value ?? 'HTTP') as TunnelType)}
          />
          <TextInput label="Port" required maxLength={5} inputMode="numeric" placeholder="8080" {...form.getInputProps('port')} />
          <Select
            label="Mode"
            required
            data={modeOptions}
            allowDeselect={false}
            {...form.getInputProps('mode')}
            onChange={(value) => form.setFieldValue('mode', (value ?? 'EPHEMERAL') as TunnelMode)}
          />
          <TextInput
            label="Name"
            maxLength={TUNNEL_NAME_INPUT_MAX}
            {...form.getInputProps('name')}
            onChange={(e) => {
              form.setFieldValue('name', e.currentTarget.value);
              if (!pathTyped) form.setFieldValue('path', suggestTunnelPath(e.currentTarget.value || tunnelFormDefaults.name));
            }}
          />
        </SimpleGrid>
        {http ? (
          <>
            <Divider label="Advanced" labelPosition="left" />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="Domain"
                data={domainOptions}
                allowDeselect={false}
                value={form.values.domainId ?? OWN_DOMAIN}
                onChange={(value) => form.setFieldValue('domainId', !value || value === OWN_DOMAIN ? null : value)}
                error={form.errors.domainId}
              />
              <TextInput
                label="Path"
                maxLength={TUNNEL_PATH_MAX}
                description={`The address: ${form.values.path || '…'}.${domainOptions.find((d) => d.value === (form.values.domainId ?? OWN_DOMAIN))?.label ?? ''}`}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                {...form.getInputProps('path')}
                onChange={(e) => {
                  setPathTyped(true);
                  form.setFieldValue('path', e.currentTarget.value);
                }}
              />
              <TextInput label="Host" maxLength={TUNNEL_HOST_MAX} description="Where the device forwards to." {...form.getInputProps('host')} />
            </SimpleGrid>
            <Divider label="Security" labelPosition="left" />
            <TextInput
              label="IP"
              placeholder="203.0.113.7, 10.0.0.0/8"
              description="Addresses and CIDR ranges allowed to use the tunnel, comma-separated; empty allows any address."
              {...form.getInputProps('securityIp')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Username" maxLength={TUNNEL_CREDENTIAL_MAX} autoComplete="off" {...form.getInputProps('securityUsername')} />
              <PasswordInput
                label="Password"
                maxLength={TUNNEL_CREDENTIAL_MAX}
                autoComplete="new-password"
                placeholder={existing?.withSecurityCredentials ? 'Leave empty to keep the current one' : undefined}
                {...form.getInputProps('securityPassword')}
              />
            </SimpleGrid>
            {existing?.withSecurityCredentials ? (
              <Text size="xs" c="dimmed">
                A password is set. Clear the username to remove both.
              </Text>
            ) : null}
          </>
        ) : null}
        <FormActions justify="flex-end" onCancel={back} saving={save.isPending} submitLabel="Save" />
      </Stack>
    </form>
  );
}
