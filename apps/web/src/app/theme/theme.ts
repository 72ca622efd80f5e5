import { createTheme } from '@mantine/core';
import { overlays } from '../layout/overlays';
// Mantine's text colours darkened where they did not reach WCAG's 4.5:1 (issue 71; readable-colours.test.ts).
import './readable-colours.css';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Filled buttons, badges and links in shade 8: white on indigo 6 read at 4.32:1, under WCAG's 4.5 (issue 71).
  primaryShade: { light: 8, dark: 8 },
  // Text on a filled colour is white or black, whichever reads: white up to a luminance of 0.18,
  // where both reach 4.5:1 (green, teal, yellow, orange and cyan get dark text).
  autoContrast: true,
  luminanceThreshold: 0.18,
  // Menus, dialogs and toasts appear without moving when the system asks for reduced motion (WCAG 2.3.3).
  respectReducedMotion: true,
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  // Plain objects, not Component.extend: importing Modal and Menu here would put them in every first load.
  components: {
    // What a page opens (menus, dropdowns, dialogs) is rendered inside <main> (overlays.ts), so it
    // is inside a landmark rather than loose at the end of <body>.
    Portal: { defaultProps: { target: overlays } },
    // Mantine's focus placeholder is a focusable element inside role=menu that is not a menu item;
    // without it, opening a menu from the keyboard focuses its first item, as a menu should.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
});
