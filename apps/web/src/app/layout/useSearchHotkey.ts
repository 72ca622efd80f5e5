import { RealmRole } from '@fleetlink/contract';
import { useHotkeys } from '@mantine/hooks';
import { useNavigate } from '../../router/router';
import { useSession } from '../auth/useSession';

/** Marks the device search box, so Ctrl/Cmd+K finds it wherever it is on the page. */
export const SEARCH_BOX_ATTRIBUTE = 'data-device-search';

/** What the device search page is told when it is opened by the hotkey: focus its box. */
export interface FocusSearchState {
  focusSearch: true;
}

/**
 * Ctrl+K (Cmd+K on a Mac) on every page (issue 71): focuses the device search box where the page
 * has one, and elsewhere opens the device search page with its box focused. Only for those who can
 * search devices (USER).
 */
export function useSearchHotkey(): void {
  const navigate = useNavigate();
  const { hasRole } = useSession();
  const allowed = hasRole(RealmRole.User);
  useHotkeys(
    allowed
      ? [
          [
            'mod+K',
            () => {
              const box = document.querySelector<HTMLInputElement>(`[${SEARCH_BOX_ATTRIBUTE}]`);
              if (box) box.focus();
              else void navigate('/devices/search', { state: { focusSearch: true } satisfies FocusSearchState });
            },
          ],
        ]
      : [],
    // Also while typing in a field: that is where people are when they want to search.
    [],
  );
}
