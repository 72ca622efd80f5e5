import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

// A component's class names live in `components/<Name>/<Name>.module.mjs`, imported by that component alone.
const CLASS_NAMES_MODULE = /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](?:[^\\/]+[\\/])*([A-Za-z]+)\.module\.mjs$/;

/**
 * Mantine ships one stylesheet per component beside the whole one (styles.css, 290 KB). Where a
 * component's class names are loaded, this adds its stylesheet: each page then carries the styles of
 * the components it uses (their dependencies too, since components import each other's class names),
 * in the same chunk, with nothing to keep in step by hand.
 */
export function mantineCssPerComponent(): Plugin {
  return {
    name: 'fleetlink:mantine-css-per-component',
    enforce: 'pre',
    transform(code, id) {
      const name = CLASS_NAMES_MODULE.exec(id)?.[1];
      if (!name) return;
      const stylesheet = path.join(id.slice(0, id.lastIndexOf(`${path.sep}esm${path.sep}`)), 'styles', `${name}.css`);
      if (!existsSync(stylesheet)) return;
      return { code: `import '@mantine/core/styles/${name}.css';\n${code}`, map: null };
    },
  };
}
