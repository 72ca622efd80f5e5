import { Anchor, Group, Kbd, Loader, Popover, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { Link, useLocation, useNavigate } from '../../../router/router';
import { SEARCH_BOX_ATTRIBUTE, type FocusSearchState } from '../../../app/layout/useSearchHotkey';
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
 * The device search box of the device pages (SPEC §2): Ctrl/Cmd+K focuses it (useSearchHotkey);
 * after 250 ms of quiet it shows up to 5 matches with the total and a link to see all; Enter opens
 * that page. It is an ARIA combobox (issue 71): ArrowDown and ArrowUp move through the matches and
 * See all, Enter opens the one chosen, Escape closes the list; focus stays in the box throughout.
 */
export function DeviceSearchBox({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const [active, setActive] = useState(-1);
  const [debounced] = useDebouncedValue(value, SEARCH_DEBOUNCE_MS);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const navigate = useNavigate();
  const location = useLocation();
  const terms = debounced.trim();
  const { data, isFetching } = useDeviceSearch({ search: terms, size: SEARCH_DROPDOWN_MAX }, { enabled: terms.length > 0 });

  useEffect(() => setValue(initial), [initial]);
  // Opened by Ctrl+K from a page without a search box.
  useEffect(() => {
    if ((location.state as FocusSearchState | null)?.focusSearch) input.current?.focus();
  }, [location.state]);
  // New matches, new choice.
  useEffect(() => setActive(-1), [terms, data]);

  const current = data && terms === debounced.trim() ? data : undefined;
  const devices = current?.devices.slice(0, SEARCH_DROPDOWN_MAX) ?? [];
  // The options in order: each device, then See all.
  const targets = current ? [...devices.map((d) => `/devices/${d.id}`), searchPageUrl(terms)] : [];
  const open = focused && !dismissed && terms.length > 0;
  // Expanded once the list is there ("Searching…" has none to point at yet).
  const listed = open && !!current;
  const optionId = (i: number) => `${listId}-option-${i}`;

  const go = (to: string) => {
    setFocused(false);
    input.current?.blur();
    void navigate(to);
  };
  // Through the options and back to the box (-1): n + 1 stops, round and round.
  const move = (step: number) => {
    setDismissed(false);
    const stops = targets.length + 1;
    setActive((i) => ((((i + 1 + step) % stops) + stops) % stops) - 1);
  };

  return (
    <Popover opened={open} position="bottom-start" width="target" shadow="md" trapFocus={false} returnFocus={false} withRoles={false}>
      <Popover.Target>
        <TextInput
          ref={input}
          type="search"
          role="combobox"
          aria-label="Search devices"
          aria-autocomplete="list"
          aria-expanded={listed}
          aria-controls={listed ? listId : undefined}
          aria-activedescendant={listed && active >= 0 ? optionId(active) : undefined}
          {...{ [SEARCH_BOX_ATTRIBUTE]: '' }}
          placeholder="Search devices by name, tag, id, hostname, IP…"
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={isFetching ? <Loader size="xs" /> : <Kbd size="xs">{isMac ? '⌘K' : 'Ctrl+K'}</Kbd>}
          rightSectionWidth={isFetching ? undefined : 64}
          value={value}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            setDismissed(false);
          }}
          onFocus={() => setFocused(true)}
          // Let a click on a result land before the dropdown closes.
          onBlur={() => setTimeout(() => setFocused(false), 150)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              move(e.key === 'ArrowDown' ? 1 : -1);
            } else if (e.key === 'Enter') {
              e.preventDefault();
              go(open && active >= 0 && targets[active] ? targets[active] : searchPageUrl(value));
            } else if (e.key === 'Escape' && open) {
              // The list closes, and the next ArrowDown starts again at the first match; the box keeps
              // its text (a second Escape clears it, the browser's way).
              e.preventDefault();
              setDismissed(true);
              setActive(-1);
            }
          }}
        />
      </Popover.Target>
      <Popover.Dropdown p="xs" data-testid="device-search-dropdown">
        {current ? (
          <Stack gap={4}>
            <Stack gap={4} id={listId} role="listbox" aria-label="Matching devices">
              {devices.map((d, i) => (
                <UnstyledButton
                  key={d.id}
                  component={Link}
                  to={targets[i]!}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === active}
                  tabIndex={-1}
                  onMouseDown={(e: MouseEvent) => e.preventDefault()}
                  onClick={() => setFocused(false)}
                  p={6}
                  bg={i === active ? 'gray.1' : undefined}
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
              <Anchor
                component={Link}
                to={targets[devices.length]!}
                id={optionId(devices.length)}
                role="option"
                aria-selected={active === devices.length}
                tabIndex={-1}
                onMouseDown={(e: MouseEvent) => e.preventDefault()}
                onClick={() => setFocused(false)}
                size="xs"
                px={6}
                bg={active === devices.length ? 'gray.1' : undefined}
                style={{ alignSelf: 'flex-end', borderRadius: 4 }}
              >
                See all
              </Anchor>
            </Stack>
            <Text size="xs" c="dimmed" px={6} role="status">
              {devicesFound(current.totals.ALL, current.estimated.ALL)}
            </Text>
          </Stack>
        ) : (
          <Text size="xs" c="dimmed" role="status">
            Searching…
          </Text>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
