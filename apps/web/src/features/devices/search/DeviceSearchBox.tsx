import { Anchor, Group, Kbd, Loader, Paper, Popover, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue, useHotkeys } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { shortId } from '../../../app/format/entity-label';
import { DeviceStatusIcon } from '../DeviceStatusIcon';
import { useDeviceSearch } from '../device-api';
import { devicesFound } from './device-count';

export const SEARCH_DEBOUNCE_MS = 250;
export const SEARCH_DROPDOWN_MAX = 5;

export const searchPageUrl = (terms: string) => {
  const t = terms.trim();
  return t ? `/devices/search?search=${encodeURIComponent(t)}` : '/devices/search';
};

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * The device search box of the device pages (SPEC §2): Ctrl/Cmd+K focuses it; after 250 ms of
 * quiet it shows up to 5 matches with the total and a link to see all; Enter opens that page.
 */
export function DeviceSearchBox({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  const [focused, setFocused] = useState(false);
  const [debounced] = useDebouncedValue(value, SEARCH_DEBOUNCE_MS);
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const terms = debounced.trim();
  const { data, isFetching } = useDeviceSearch({ search: terms, size: SEARCH_DROPDOWN_MAX }, { enabled: terms.length > 0 });

  useEffect(() => setValue(initial), [initial]);
  useHotkeys([['mod+K', () => input.current?.focus()]], []);

  const open = focused && terms.length > 0;
  const seeAll = () => {
    setFocused(false);
    input.current?.blur();
    void navigate(searchPageUrl(value));
  };

  return (
    <Popover opened={open} position="bottom-start" width="target" shadow="md" trapFocus={false} returnFocus={false}>
      <Popover.Target>
        <TextInput
          ref={input}
          type="search"
          aria-label="Search devices"
          placeholder="Search devices by name, tag, id, hostname, IP…"
          leftSection={<IconSearch size={16} />}
          rightSection={isFetching ? <Loader size="xs" /> : <Kbd size="xs">{isMac ? '⌘K' : 'Ctrl+K'}</Kbd>}
          rightSectionWidth={isFetching ? undefined : 64}
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          onFocus={() => setFocused(true)}
          // Let a click on a result land before the dropdown closes.
          onBlur={() => setTimeout(() => setFocused(false), 150)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              seeAll();
            } else if (e.key === 'Escape') {
              setFocused(false);
            }
          }}
        />
      </Popover.Target>
      <Popover.Dropdown p="xs" data-testid="device-search-dropdown">
        {data && terms === debounced.trim() ? (
          <Stack gap={4}>
            {data.devices.slice(0, SEARCH_DROPDOWN_MAX).map((d) => (
              <UnstyledButton
                key={d.id}
                component={Link}
                to={`/devices/${d.id}`}
                onClick={() => setFocused(false)}
                p={6}
                style={{ borderRadius: 4 }}
              >
                <Group gap="xs" wrap="nowrap">
                  <DeviceStatusIcon online={d.online} installed={d.properties !== null} size={16} />
                  <Text size="sm" truncate>
                    {d.name}
                  </Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {shortId(d.id)}
                  </Text>
                </Group>
              </UnstyledButton>
            ))}
            <Paper px={6} pt={4}>
              <Group justify="space-between">
                <Text size="xs" c="dimmed">
                  {devicesFound(data.totals.ALL, data.estimated.ALL)}
                </Text>
                <Anchor component={Link} to={searchPageUrl(terms)} size="xs" onClick={() => setFocused(false)}>
                  See all
                </Anchor>
              </Group>
            </Paper>
          </Stack>
        ) : (
          <Text size="xs" c="dimmed">
            Searching…
          </Text>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
