/**
 * Where menus, dropdowns, dialogs and toasts are rendered: the theme's Portal target. It starts in
 * <body>, so that they show on any page (a startup error, a component alone); the console's frame
 * moves it into <main> while it is shown, so that what a page opens is inside a landmark (issue 71).
 */
export const overlays: HTMLElement | undefined = typeof document === 'undefined' ? undefined : createOverlays();

function createOverlays(): HTMLElement {
  const element = document.createElement('div');
  element.id = 'overlays';
  document.body.appendChild(element);
  return element;
}

/** A ref for the element the overlays should live in; they go back to <body> when it goes. */
export function holdOverlays(parent: HTMLElement | null): (() => void) | undefined {
  if (!parent || !overlays) return undefined;
  parent.appendChild(overlays);
  return () => document.body.appendChild(overlays);
}
