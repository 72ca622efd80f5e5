import { Title, type TitleProps } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from '../../router/router';
import { announce } from './announcer';
import { focusOnArrival } from './focus-on-arrival';

export const APP_NAME = 'Fleetlink';

interface PageTitleProps extends Omit<TitleProps, 'order' | 'children' | 'title'> {
  /** What the page is, as the document's title says it ("Find devices — Fleetlink") and the live region reads it. */
  title: string;
  /** What the heading shows, when more than the title's text (an icon, a badge). */
  children?: ReactNode;
}

/**
 * The page's one h1 (issue 71). It names the document, is announced after each route change, and
 * takes the focus when a new page arrives, so a keyboard or screen-reader user starts there rather
 * than at the top of the document. Tabs within a page (a device's, an organization's) keep their
 * heading: there only the title changes and is announced, and focus stays on the tab.
 */
export function PageTitle({ title, children, style, ...props }: PageTitleProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { key, pathname } = useLocation();
  useEffect(() => {
    document.title = `${title} — ${APP_NAME}`;
  }, [title]);
  // Said on each new path (a search typed into the address's query is not a new page).
  useEffect(() => {
    announce(title);
  }, [title, pathname]);
  useEffect(() => {
    if (heading.current) focusOnArrival(heading.current, key);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- only when this heading first appears
  return (
    <Title ref={heading} order={1} tabIndex={-1} data-page-heading style={{ outline: 'none', ...(style as object) }} {...props}>
      {children ?? title}
    </Title>
  );
}
