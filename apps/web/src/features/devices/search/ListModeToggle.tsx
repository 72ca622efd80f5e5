import { Button } from '@mantine/core';
import { IconLayoutGrid, IconList } from '@tabler/icons-react';
import type { ListMode } from './list-mode';

const MODES = [
  { value: 'grid', label: 'Grid', Icon: IconLayoutGrid },
  { value: 'list', label: 'List', Icon: IconList },
] as const;

/**
 * Grid or list, as two toggle buttons (aria-pressed). Mantine's SegmentedControl, used before,
 * measures its options' boxes as it mounts: the device list's layout was forced inside the task that
 * rendered it, on every first load (issue 68).
 */
export function ListModeToggle({ mode, onChange }: { mode: ListMode; onChange: (mode: ListMode) => void }) {
  return (
    <Button.Group aria-label="Display mode">
      {MODES.map(({ value, label, Icon }) => (
        <Button
          key={value}
          variant={mode === value ? 'light' : 'default'}
          aria-pressed={mode === value}
          leftSection={<Icon size={16} />}
          onClick={() => onChange(value)}
        >
          {label}
        </Button>
      ))}
    </Button.Group>
  );
}
