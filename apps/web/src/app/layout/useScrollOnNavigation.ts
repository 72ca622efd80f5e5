import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * A new page starts at its top, or at the section named by its #anchor. Deep links such as
 * /terms-service#governing-law arrive after sign-in, long after the browser's own jump to the
 * anchor, so the console does it once the page is rendered.
 *
 * (React Router's ScrollRestoration is not used: it keys saved positions by history entry, and the
 * first entry of every full page load shares one key, so the position saved on the way to sign-in
 * was "restored" over the anchor on the way back.)
 */
export function useScrollOnNavigation(): void {
  const { pathname, hash } = useLocation();
  useLayoutEffect(() => {
    if (hash) {
      try {
        const target = document.getElementById(decodeURIComponent(hash.slice(1)));
        if (target) {
          target.scrollIntoView();
          return;
        }
      } catch {
        // A malformed escape in the hash names no element.
      }
    }
    window.scrollTo(0, 0);
  }, [pathname, hash]);
}
