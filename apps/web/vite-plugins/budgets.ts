/** The bootstrap: all a signed-out visitor loads before being sent to sign in. */
export const BOOT_MODULES = ['src/boot/boot.ts'];

/**
 * The device list, the page a signed-in user lands on most: the console (loaded by the bootstrap)
 * and the page's own chunk. Its first load has a budget, compressed as sent, checked by the build
 * (first-load-budget.ts) and measured in a browser (e2e/first-load.e2e.ts): issue 68's 170 kB of
 * JavaScript and 40 kB of CSS (154 kB and 21 kB on 2026-12-01; the README's "A light first load").
 */
export const DEVICE_LIST = {
  page: 'the device list (/devices/search)',
  modules: ['src/app/console.tsx', 'src/features/devices/search/DeviceSearchPage.tsx'],
  maxJsBytes: 170_000,
  maxCssBytes: 40_000,
};
