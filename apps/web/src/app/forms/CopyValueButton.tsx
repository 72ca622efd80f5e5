import { ActionIcon, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** SPEC §9: copy-icon feedback lasts 1 s. */
export const COPY_FEEDBACK_MS = 1000;

/** An icon that copies `value` to the clipboard and says so for a second; `label` names what it copies. */
export function CopyValueButton({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value} timeout={COPY_FEEDBACK_MS}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : `Copy ${label}`} withArrow>
          <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={copied ? 'Copied' : `Copy ${label}`}>
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}
