import { z } from 'zod';

// zod compiles object parsers with `new Function` when it can, and finds out whether it can by
// trying one; under the console's CSP (no 'unsafe-eval') that try is refused and the browser
// reports a CSP violation on every page. The interpreted parsers need no eval and are fast enough
// for forms and API answers. Imported by console.tsx, and built into zod's own chunk (vite.config.ts) so it runs before any schema is built.
z.config({ jitless: true });
