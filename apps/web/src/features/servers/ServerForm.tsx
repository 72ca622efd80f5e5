import {
  serverFormDefaults,
  serverFormSchema,
  serverEditFormSchema,
  serverUpdateFormSchema,
  serverLabels,
  serverStatuses,
  serverStatusLabel,
  serverUrlIsEncrypted,
  serverUrlIsPlain,
  type Server,
  type ServerFormInput,
  type ServerStatus,
  type ServerType,
} from '@fleetlink/contract';
import { Alert, Button, FileButton, Group, NumberInput, PasswordInput, Radio, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm, type GetInputPropsReturnType } from '@mantine/form';
import { IconDownload, IconTrash, IconUpload } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { zodValidate } from '../../app/forms/zod-validate';
import { useAllOrganizations } from './server-api';
import { downloadBase64, fileToBase64 } from './trust-store';
import { FormActions } from '../../app/forms/FormActions';

export interface ServerFormValues {
  type: ServerType;
  url: string;
  notes: string;
  maxCapacity: number | string;
  status: ServerStatus;
  organization: string;
  username: string;
  password: string;
  trustStore: string;
  trustStorePassword: string;
  blobBaseUrl: string;
  hostKey: string;
}

export const serverFormValuesOf = (s?: Server): ServerFormValues =>
  s
    ? {
        type: s.type,
        url: s.url,
        notes: s.notes ?? '',
        maxCapacity: s.maxCapacity,
        status: s.status,
        organization: s.organization?.id ?? '',
        username: s.username ?? '',
        // Secrets are never answered: blank keeps the one set.
        password: '',
        trustStore: s.trustStore ?? '',
        trustStorePassword: '',
        blobBaseUrl: s.blobBaseUrl ?? '',
        hostKey: s.hostKey ?? '',
      }
    : { ...serverFormDefaults };

interface ServerFormProps {
  initial?: Server;
  submitLabel: string;
  saving: boolean;
  onSubmit(values: ServerFormInput): void;
  onCancel(): void;
  /** Extra buttons (Remove on the edit page). */
  extra?: ReactNode;
}

/** A secret's field once one is set: blank keeps it, since the console never sends it back. */
const KEPT_SECRET = 'Set. Leave blank to keep it unchanged; type to replace it.';

/** A password field: never filled in, required unless one is kept, and saying so when one is. */
function SecretInput({
  kept,
  required,
  hint,
  ...input
}: { label: string; kept: boolean; required: boolean; hint?: string } & GetInputPropsReturnType) {
  return <PasswordInput required={required && !kept} description={kept ? KEPT_SECRET : hint} autoComplete="new-password" {...input} />;
}
const BUILT_IN = 'Started with the console, which keeps its address and credentials: only its max capacity, status and notes can change.';

/** SPEC §5 server form: fields required by type, trust store from a file kept as base64. */
export function ServerForm({ initial, submitLabel, saving, onSubmit, onCancel, extra }: ServerFormProps) {
  const form = useForm<ServerFormValues>({
    mode: 'controlled',
    initialValues: serverFormValuesOf(initial),
    validate: zodValidate<ServerFormValues>(!initial ? serverFormSchema : initial.builtIn ? serverUpdateFormSchema : serverEditFormSchema),
    validateInputOnChange: true,
  });
  const organizations = useAllOrganizations();
  const message = form.values.type === 'MESSAGE';
  const trustStore = form.values.trustStore;
  const builtIn = initial?.builtIn === true;
  const encrypted = serverUrlIsEncrypted(form.values.url);
  // A secret is required unless the server keeps one of the same type already.
  const kept = (set: boolean | undefined) => set === true && initial?.type === form.values.type;
  const passwordKept = kept(initial?.passwordSet);
  const trustStorePasswordKept = kept(initial?.trustStorePasswordSet);

  return (
    <form noValidate onSubmit={form.onSubmit((v) => onSubmit({ ...v, organization: v.organization || null, maxCapacity: Number(v.maxCapacity) }))}>
      <Stack maw={720}>
        {builtIn ? (
          <Alert color="blue" title={`Built-in ${message ? 'message server' : 'tunnel proxy'}`}>
            <Text size="sm">{form.values.url}</Text>
            <Text size="sm">{BUILT_IN}</Text>
          </Alert>
        ) : (
          <>
            <Radio.Group label={serverLabels.type} required {...form.getInputProps('type')}>
              <Group mt="xs">
                <Radio value="MESSAGE" label="Message" />
                <Radio value="PROXY" label="Proxy" />
              </Group>
            </Radio.Group>
            <TextInput
              label={serverLabels.url}
              required
              description="The URL must include the protocol and the port, e.g. mqtts://mq.example.com:8883."
              {...form.getInputProps('url')}
            />
          </>
        )}
        <NumberInput
          label={serverLabels.maxCapacity}
          required
          min={1}
          allowDecimal={false}
          description="The number of device accounts this server takes; used to pick the least loaded server."
          {...form.getInputProps('maxCapacity')}
        />
        <Select
          label={serverLabels.status}
          required
          data={serverStatuses.map((s) => ({ value: s, label: serverStatusLabel(s) }))}
          allowDeselect={false}
          {...form.getInputProps('status')}
        />
        {builtIn ? null : (
          <Select
            label={serverLabels.organization}
            description="Leave empty for a public server shared by every organization."
            clearable
            searchable
            placeholder="Public"
            data={(organizations.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
            {...form.getInputProps('organization')}
            onChange={(v) => form.setFieldValue('organization', v ?? '')}
          />
        )}
        {builtIn ? null : message ? (
          <>
            <TextInput label={serverLabels.username} required autoComplete="off" {...form.getInputProps('username')} />
            <SecretInput label={serverLabels.password} kept={passwordKept} required {...form.getInputProps('password')} />
            {!serverUrlIsPlain(form.values.url) ? null : (
              <Alert color="yellow" data-testid="server-plain-link">
                <Text size="sm">
                  This link is not encrypted: device credentials and everything the devices send cross the network as plain text. Use
                  mqtts:// or wss:// unless the server is on a network you trust.
                </Text>
              </Alert>
            )}
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {serverLabels.trustStore} {encrypted ? <span style={{ color: 'var(--mantine-color-error)' }}>*</span> : null}
              </Text>
              <Text size="xs" c="dimmed">
                For mqtts:// and wss:// URLs: the CA certificate the message server's TLS certificate is checked against.
                {encrypted ? '' : ' Not needed for this URL.'}
              </Text>
              <Group>
                <FileButton
                  onChange={async (file) => {
                    if (!file) return;
                    form.setFieldValue('trustStore', await fileToBase64(file));
                    form.setTouched({ trustStore: true });
                  }}
                >
                  {(props) => (
                    <Button variant="default" leftSection={<IconUpload size={16} />} {...props}>
                      {trustStore ? 'Replace file' : 'Choose file'}
                    </Button>
                  )}
                </FileButton>
                {trustStore ? (
                  <>
                    <Text size="sm">{Math.round((trustStore.length * 3) / 4)} bytes</Text>
                    <Button variant="subtle" leftSection={<IconDownload size={16} />} onClick={() => downloadBase64(trustStore, 'truststore')}>
                      Download
                    </Button>
                    <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={() => form.setFieldValue('trustStore', '')}>
                      Clear
                    </Button>
                  </>
                ) : null}
              </Group>
              {form.errors.trustStore ? (
                <Text size="xs" c="red">
                  {form.errors.trustStore}
                </Text>
              ) : null}
            </Stack>
            <SecretInput
              label={serverLabels.trustStorePassword}
              kept={trustStorePasswordKept}
              required={encrypted}
              hint={encrypted ? undefined : 'For mqtts:// and wss:// URLs only.'}
              {...form.getInputProps('trustStorePassword')}
            />
            <TextInput
              label={serverLabels.blobBaseUrl}
              required
              description="Where agents upload and download files, e.g. https://blobs.example.com/fleetlink."
              {...form.getInputProps('blobBaseUrl')}
            />
          </>
        ) : (
          <>
            <TextInput
              label={serverLabels.username}
              readOnly
              value={initial?.id ?? ''}
              placeholder="The server's id, given when it is saved"
              description="The proxy signs in to the console with this server's id (its PROXY_SERVER_ID) as username and the password below."
              data-testid="server-proxy-username"
            />
            <SecretInput
              label={serverLabels.password}
              kept={passwordKept}
              required
              hint="The proxy's PROXY_PASSWORD: choose one and give the proxy the same."
              {...form.getInputProps('password')}
            />
            <Textarea
              label={serverLabels.hostKey}
              required
              autosize
              minRows={2}
              description="The proxy's SSH host public key, which agents verify."
              {...form.getInputProps('hostKey')}
            />
          </>
        )}
        <Textarea label={serverLabels.notes} autosize minRows={2} {...form.getInputProps('notes')} />
        <Group justify="space-between">
          <Group>{extra}</Group>
          <FormActions onCancel={onCancel} saving={saving} submitLabel={submitLabel} />
        </Group>
      </Stack>
    </form>
  );
}
