// No zod here: the web console's bootstrap imports these before it loads anything else.

/**
 * Where the SPA's hidden-iframe sign-in lands (the OIDC client's silent redirect URI): SPEC §9 'silent
 * check page served from the assets folder', the folder the build puts its assets in.
 */
export const SILENT_CHECK_PATH = '/assets/silent-check-sso.html';
/** Its place before it moved, still answered: providers may have only this redirect URI registered. */
export const LEGACY_SILENT_CHECK_PATH = '/silent-check-sso.html';

/**
 * Where the build puts the web console's workers' scripts (`assets/worker-…`): a worker runs under the
 * Content-Security-Policy its own script is sent with, where a page's scripts and stylesheets run
 * under the page's, so the console sends that header with workers' scripts alone of its assets.
 */
export const WORKER_ASSET_PREFIX = 'assets/worker-';

/**
 * "Someone signed in with this browser and has not signed out since": a session cookie the web
 * console sets, holding no identity. With it, the console's code is fetched while the sign-in is
 * checked (the bootstrap), and the console server names that code in index.html's preload links;
 * without it (a first visit, after signing out) nothing of the console is downloaded before the
 * sign-in page.
 */
export const SESSION_HINT_COOKIE = '_fls';

/** The web build's console module, as its manifest names it (the bootstrap loads it once signed in). */
export const CONSOLE_MODULE = 'src/app/console.tsx';

/**
 * The pages people most often open first, by the router's path patterns, each with its module as
 * the web build's manifest names it: to a browser someone was signed in with, the console server
 * preloads the page's code with the console's (console-preload.ts), so that the page is ready when
 * the console first renders. The routes name the same pages as landings (lazyPage's `landsAt`), which
 * apps/web/src/app/router/landing-pages.test.ts holds them to.
 */
export const LANDING_PAGES: readonly { path: string; module: string }[] = [
  { path: '/', module: 'src/features/home/HomePage.tsx' },
  { path: '/devices', module: 'src/features/devices/DevicesLandingPage.tsx' },
  { path: '/devices/search', module: 'src/features/devices/search/DeviceSearchPage.tsx' },
  { path: '/devices/new', module: 'src/features/devices/form/DeviceFormPages.tsx' },
  { path: '/devices/:id/*', module: 'src/features/devices/detail/DeviceLayout.tsx' },
];

/**
 * The path parameters of `pathname` at the router's `pattern` (`:name` one segment, a trailing `/*`
 * anything below), or null where it is not there.
 */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  if (pathname === '/' || pattern === '/') return pathname === pattern ? {} : null;
  const wanted = pattern.replace(/\/\*$/, '').split('/');
  const given = pathname.replace(/\/$/, '').split('/');
  if (pattern.endsWith('/*') ? given.length < wanted.length : given.length !== wanted.length) return null;
  const params: Record<string, string> = {};
  for (const [i, segment] of wanted.entries()) {
    const value = given[i]!;
    if (!segment.startsWith(':')) {
      if (segment !== value) return null;
      continue;
    }
    const decoded = value === '' ? null : decodeSegment(value);
    if (decoded === null) return null;
    params[segment.slice(1)] = decoded;
  }
  return params;
}

/** A path segment as text; null for a malformed escape (`%E0%A4`), which no page's address holds. */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The landing page at `pathname` and its path parameters: the exact page first (/devices/new, not a device called "new"). */
export function landingPageAt(pathname: string): { page: (typeof LANDING_PAGES)[number]; params: Record<string, string> } | undefined {
  const exact = LANDING_PAGES.find((page) => page.path === pathname);
  if (exact) return { page: exact, params: {} };
  for (const page of LANDING_PAGES) {
    const params = matchPath(page.path, pathname);
    if (params) return { page, params };
  }
  return undefined;
}
