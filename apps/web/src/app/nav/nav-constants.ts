/** Hover menus open and close after the pointer rests this long, so passing over them does nothing. */
export const NAV_HOVER_DEBOUNCE_MS = 200;
