import type { MyAccount, TwoFactorSetup } from '@fleetlink/contract';
import { Alert, Button, Card, Code, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ApiRequestError } from '../../app/api/api-error';
import { CopyValueButton } from '../../app/forms/CopyValueButton';
import { useNewRecoveryCodes, useTwoFactorDisable, useTwoFactorEnable, useTwoFactorSetup } from './my-account-api';

/** A field's own message when the server answered with one (a wrong code), else nothing: the console's notice says the rest. */
const fieldError = (err: unknown) => (err instanceof ApiRequestError ? (err.fields?.code ?? null) : null);

/** The QR code as an image: the console's own SVG, in a data URL, so nothing in it runs. */
const qrSource = (svg: string) => `data:image/svg+xml;base64,${btoa(svg)}`;

/** The recovery codes, shown once after turning it on or making new ones. */
function RecoveryCodesShown({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Alert color="teal" title="Save your recovery codes" data-testid="recovery-codes">
      <Stack gap="xs">
        <Text size="sm">Each signs you in once if you lose your phone. They are not shown again: keep them somewhere safe.</Text>
        <List size="sm" ff="monospace" aria-label="Recovery codes">
          {codes.map((c) => (
            <List.Item key={c}>{c}</List.Item>
          ))}
        </List>
        <Group gap="xs">
          <CopyValueButton value={codes.join('\n')} label="the recovery codes" />
          <Button variant="default" size="xs" onClick={onDone}>
            I saved them
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** Setting up: the QR code and key, and the app's first code to turn it on. */
function SetUp({ setup, onCodes }: { setup: TwoFactorSetup; onCodes: (codes: string[]) => void }) {
  const enable = useTwoFactorEnable();
  const [code, setCode] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    enable.mutate({ code }, { onSuccess: (r) => onCodes(r.recoveryCodes) });
  };
  return (
    <form noValidate aria-label="Set up two-factor authentication" onSubmit={submit}>
      <Stack gap="sm">
        <Text size="sm">Scan this code with an authenticator app (such as Aegis, Google Authenticator or 1Password), then type the code it shows.</Text>
        <img src={qrSource(setup.qrSvg)} width={200} height={200} alt="QR code of the secret for your authenticator app" data-testid="two-factor-qr" />
        <Group gap="xs" wrap="nowrap">
          <Text size="sm">Cannot scan? Enter this key:</Text>
          <Code data-testid="two-factor-key" style={{ overflowWrap: 'anywhere' }}>
            {setup.secret}
          </Code>
          <CopyValueButton value={setup.secret} label="the key" />
        </Group>
        <TextInput
          label="Code from the app"
          required
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={32}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={fieldError(enable.error)}
          w={220}
        />
        <Group>
          <Button type="submit" loading={enable.isPending} disabled={!code.trim()}>
            Turn on
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** While it is on: new recovery codes, or off, each with a code from the app (or a recovery code). */
function WhileOn({ status, onCodes }: { status: MyAccount['twoFactor']; onCodes: (codes: string[]) => void }) {
  const renew = useNewRecoveryCodes();
  const disable = useTwoFactorDisable();
  const [code, setCode] = useState('');
  const done = () => setCode('');
  return (
    <form noValidate aria-label="Change two-factor authentication" onSubmit={(e) => e.preventDefault()}>
      <Stack gap="sm">
        <Text size="sm">
          On: signing in asks for a code from your authenticator app. {status.recoveryCodesLeft} of 10 recovery codes left.
          {status.required ? ' Administrators here must use it, so it stays on.' : ''}
        </Text>
        <TextInput
          label="Code from the app, or a recovery code"
          description="Proves it is you before a change."
          autoComplete="one-time-code"
          maxLength={32}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={fieldError(renew.error) ?? fieldError(disable.error)}
          w={320}
        />
        <Group>
          <Button
            variant="default"
            disabled={!code.trim()}
            loading={renew.isPending}
            onClick={() => {
              disable.reset();
              renew.mutate(
                { code },
                {
                  onSuccess: (r) => {
                    done();
                    onCodes(r.recoveryCodes);
                  },
                },
              );
            }}
          >
            New recovery codes
          </Button>
          {status.required ? null : (
            <Button
              color="red"
              variant="light"
              disabled={!code.trim()}
              loading={disable.isPending}
              onClick={() => {
                renew.reset();
                disable.mutate({ code }, { onSuccess: done });
              }}
            >
              Turn off
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** My account's two-factor authentication (issue 72): TOTP from an authenticator app, with recovery codes. */
export function TwoFactorCard({ status }: { status: MyAccount['twoFactor'] }) {
  const setup = useTwoFactorSetup();
  const [codes, setCodes] = useState<string[] | null>(null);
  const showCodes = (shown: string[]) => {
    setup.reset();
    setCodes(shown);
  };
  return (
    <Card withBorder padding="lg" data-testid="two-factor-card">
      <Stack gap="sm">
        <Title order={2} size="h5">
          Two-factor authentication
        </Title>
        {codes ? <RecoveryCodesShown codes={codes} onDone={() => setCodes(null)} /> : null}
        {status.enabled ? (
          <WhileOn status={status} onCodes={showCodes} />
        ) : setup.data ? (
          <SetUp setup={setup.data} onCodes={showCodes} />
        ) : (
          <>
            <Text size="sm">
              Off. {status.required ? 'Administrators here must use it: you will be asked to set it up at your next sign-in. ' : ''}With it on, signing in asks for a code from an authenticator app after your password.
            </Text>
            <Group>
              <Button loading={setup.isPending} onClick={() => setup.mutate(undefined)}>
                Set up two-factor authentication
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}
