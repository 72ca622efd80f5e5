import { Alert, Button, Code, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { CopyValueButton } from './CopyValueButton';

/**
 * A secret the console shows this once (an API token, a webhook's signing secret): it keeps only a
 * hash or a sealed copy, so the person copies it now and says so.
 */
export function SecretOnce(props: { title: string; secret: string; label: string; testId: string; secretTestId?: string; children: ReactNode; after?: ReactNode; onDone: () => void }) {
  return (
    <Alert color="teal" title={props.title} data-testid={props.testId}>
      <Stack gap="xs">
        {props.children}
        <Group gap="xs" wrap="nowrap">
          <Code data-testid={props.secretTestId} style={{ overflowWrap: 'anywhere' }}>
            {props.secret}
          </Code>
          <CopyValueButton value={props.secret} label={props.label} />
        </Group>
        {props.after}
        <Group>
          <Button variant="default" size="xs" onClick={props.onDone}>
            I have copied it
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
