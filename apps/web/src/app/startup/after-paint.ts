import { useEffect, useState } from 'react';

/** Runs `run` in a task of its own after the next frame has been rendered. */
export function afterNextPaint(run: () => void): void {
  requestAnimationFrame(() => setTimeout(run, 0));
}

/**
 * False until the component's first render has been painted. The frame's own questions (the alert
 * bell's, the profile's) wait for it: on a phone's first load they otherwise share the browser's six
 * connections with the page's own code and data, and the page paints later (issue 68).
 */
export function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let live = true;
    afterNextPaint(() => live && setPainted(true));
    return () => {
      live = false;
    };
  }, []);
  return painted;
}
