import { useEffect, useState } from 'react';
import { onAnnouncement } from './announcer';

/** The live region `announce` writes to; rendered once, in the console's frame. */
export function LiveAnnouncer() {
  const [text, setText] = useState('');
  useEffect(
    () =>
      onAnnouncement((next) => {
        // Emptied first, so the same words said twice (the same answer again) are read twice.
        setText('');
        requestAnimationFrame(() => setText(next));
      }),
    [],
  );
  return (
    <div className="visually-hidden" role="status" aria-live="polite" data-testid="live-announcer">
      {text}
    </div>
  );
}
