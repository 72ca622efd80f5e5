import { useLayoutEffect } from 'react';
import { useLocation } from '../../router/router';

/** How long a page's code and content may take to show the section its #anchor names. */
const ANCHOR_WAIT_MS = 10_000;

function anchorTarget(hash: string): HTMLElement | null {
  try {
    return document.getElementById(decodeURIComponent(hash.slice(1)));
  } catch {
    // A malformed escape in the hash names no element.
    return null;
  }
}

/**
 * A new page starts at its top, or at the section named by its #anchor. Deep links such as
 * /terms-service#governing-law arrive after sign-in, long after the browser's own jump to the
 * anchor, so the console does it once the section is rendered: each page's code is loaded when it
 * is first shown, so the section may come a moment after the navigation.
 *
 * (Positions saved by history entry, as React Router's ScrollRestoration kept them, would not do:
 * the first entry of every full page load shares one key, so the position saved on the way to
 * sign-in would be "restored" over the anchor on the way back.)
 */
export function useScrollOnNavigation(): void {
  const { pathname, hash } = useLocation();
  useLayoutEffect(() => {
    const found = hash ? anchorTarget(hash) : null;
    if (found) {
      found.scrollIntoView();
      return;
    }
    window.scrollTo(0, 0);
    if (!hash) return;
    const observer = new MutationObserver(() => {
      const target = anchorTarget(hash);
      if (!target) return;
      stop();
      target.scrollIntoView();
    });
    const timer = setTimeout(() => stop(), ANCHOR_WAIT_MS);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
    };
    observer.observe(document.body, { childList: true, subtree: true });
    return stop;
  }, [pathname, hash]);
}
