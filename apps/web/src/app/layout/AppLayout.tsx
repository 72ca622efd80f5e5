import { AppShell, Container } from '@mantine/core';
import { Outlet, ScrollRestoration } from 'react-router';
import { TopNav } from '../nav/TopNav';
import { AppFooter } from './AppFooter';

export const HEADER_HEIGHT = 60;

/** The console frame: top navigation, the page, and the footer below it. */
export function AppLayout() {
  return (
    <AppShell header={{ height: HEADER_HEIGHT }} padding={0}>
      <AppShell.Header>
        <TopNav />
      </AppShell.Header>
      <AppShell.Main bg="gray.0" style={{ display: 'flex', flexDirection: 'column' }}>
        <Container size="lg" w="100%" py="lg" style={{ flex: 1 }}>
          <Outlet />
        </Container>
        <AppFooter />
      </AppShell.Main>
      {/* Scrolls to the top on navigation, and to the #anchor of deep links such as /terms-service#security. */}
      <ScrollRestoration />
    </AppShell>
  );
}
