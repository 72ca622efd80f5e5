import { useEffect, useRef } from 'react';
import { onAnnouncement } from './announcer';

/**
 * The live region `announce` writes to; rendered once, in the console's frame. It lives in a closed
 * shadow root: screen readers read it as any live region, but what it repeats (a page's title, a
 * field's message) is not found a second time by text, by the browser's Find or by a test looking
 * for the message on the page. What it said last is on the host's `data-said`.
 */
export function LiveAnnouncer() {
  const host = useRef<HTMLDivElement>(null);
  const region = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    if (!host.current) return;
    if (!region.current) {
      const root = host.current.attachShadow({ mode: 'closed' });
      region.current = document.createElement('div');
      region.current.setAttribute('role', 'status');
      region.current.setAttribute('aria-live', 'polite');
      root.appendChild(region.current);
    }
    const said = region.current;
    return onAnnouncement((text) => {
      // Emptied first, so the same words said twice (the same answer again) are read twice.
      said.textContent = '';
      requestAnimationFrame(() => {
        said.textContent = text;
        host.current?.setAttribute('data-said', text);
      });
    });
  }, []);
  return <div ref={host} className="visually-hidden" data-testid="live-announcer" />;
}
