import { Box, Container } from '@mantine/core';
import { Outlet } from '../../router/router';
import { LiveAnnouncer } from '../a11y/LiveAnnouncer';
import { useAnnouncedFormErrors } from '../a11y/useAnnouncedFormErrors';
import { useRefocusOnNavigation } from '../a11y/useRefocusOnNavigation';
import { TopNav } from '../nav/TopNav';
import { useAlertsStayOnTheirPage } from '../toasts/useAlertsStayOnTheirPage';
import { AppFooter } from './AppFooter';
import { holdOverlays } from './overlays';
import { useScrollOnNavigation } from './useScrollOnNavigation';
import { useSearchHotkey } from './useSearchHotkey';
import { useLiveUpdates } from '../../features/live/useLiveUpdates';

export const HEADER_HEIGHT = 60;
/** The page's main landmark: the skip link's target. */
const MAIN_ID = 'main-content';

/**
 * The console frame: a skip link, the fixed top navigation (the banner), the page (main) and the
 * footer below it (contentinfo). Plain elements rather than Mantine's AppShell, whose navbars,
 * asides and resizing this console does not use and every first load paid for (issue 68).
 */
export function AppLayout() {
  useScrollOnNavigation();
  useAlertsStayOnTheirPage();
  useLiveUpdates();
  useSearchHotkey();
  useRefocusOnNavigation();
  useAnnouncedFormErrors();
  return (
    <>
      <a className="skip-link" href={`#${MAIN_ID}`}>
        Skip to main content
      </a>
      <LiveAnnouncer />
      {/* right-scroll-bar-position: a dialog that stops the page scrolling pads this fixed header too. */}
      <header className="app-header right-scroll-bar-position" style={{ height: HEADER_HEIGHT }}>
        <TopNav />
      </header>
      <Box
        component="main"
        id={MAIN_ID}
        tabIndex={-1}
        bg="gray.0"
        pt={HEADER_HEIGHT}
        style={{ display: 'flex', flexDirection: 'column', minHeight: '100dvh', outline: 'none' }}
      >
        {/* At least a screen high: the footer starts below the fold, so a page growing as its data
            arrives does not push it down in view (a layout shift, issue 68). */}
        <Container size="lg" w="100%" py="lg" style={{ flex: 1, minHeight: `calc(100dvh - ${HEADER_HEIGHT}px)` }}>
          <Outlet />
        </Container>
        {/* What the page opens (menus, dialogs) is rendered here, inside main (overlays.ts). */}
        <div ref={holdOverlays} />
      </Box>
      <Box bg="gray.0">
        <AppFooter />
      </Box>
    </>
  );
}
