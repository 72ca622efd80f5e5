import { useEffect } from 'react';
import { useLocation } from '../../router/router';
import { refocusLostFocus } from './focus-on-arrival';

/** On each new path, gives the page's heading the focus if it fell to <body> (refocusLostFocus). */
export function useRefocusOnNavigation(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    // After the browser has moved focus off the removed control.
    const timer = setTimeout(refocusLostFocus, 0);
    return () => clearTimeout(timer);
  }, [pathname]);
}
