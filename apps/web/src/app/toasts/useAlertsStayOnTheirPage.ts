import { useEffect, useRef } from 'react';
import { useLocation } from '../../router/router';
import { hideAlerts } from './show-alert';

/** Alerts close when the person goes to another page (issue 59): they told of the page they left. */
export function useAlertsStayOnTheirPage(): void {
  const { pathname } = useLocation();
  const seen = useRef(pathname);
  useEffect(() => {
    if (pathname === seen.current) return;
    seen.current = pathname;
    hideAlerts();
  }, [pathname]);
}
