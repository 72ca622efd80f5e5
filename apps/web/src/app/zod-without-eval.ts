import { z } from 'zod/v4';

// zod compiles object parsers with `new Function` when it can, and finds out whether it can by
// trying one; under the console's CSP (no 'unsafe-eval') that try is refused and the browser
// reports a CSP violation on every page. The interpreted parsers need no eval and are fast enough
// for forms. The web build takes this module for `zod` (vite.config.ts), so the setting holds before
// any schema is built, and only pages that use zod load it (the device list does not: issue 68).
z.config({ jitless: true });

export { z };
