import { AppShell, Container } from '@mantine/core';
import { Outlet } from 'react-router';
import { TopNav } from '../nav/TopNav';
import { useAlertsStayOnTheirPage } from '../toasts/useAlertsStayOnTheirPage';
import { AppFooter } from './AppFooter';
import { useScrollOnNavigation } from './useScrollOnNavigation';
import { useLiveUpdates } from '../../features/live/useLiveUpdates';

export const HEADER_HEIGHT = 60;

/** The console frame: top navigation, the page, and the footer below it. */
export function AppLayout() {
  useScrollOnNavigation();
  useAlertsStayOnTheirPage();
  useLiveUpdates();
  return (
    <AppShell header={{ height: HEADER_HEIGHT }} padding={0}>
      <AppShell.Header>
        <TopNav />
      </AppShell.Header>
      <AppShell.Main bg="gray.0" style={{ display: 'flex', flexDirection: 'column' }}>
        {/* At least a screen high: the footer starts below the fold, so a page growing as its data
            arrives does not push it down in view (a layout shift, issue 68). */}
        <Container size="lg" w="100%" py="lg" style={{ flex: 1, minHeight: `calc(100dvh - ${HEADER_HEIGHT}px)` }}>
          <Outlet />
        </Container>
        <AppFooter />
      </AppShell.Main>
    </AppShell>
  );
}
