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
