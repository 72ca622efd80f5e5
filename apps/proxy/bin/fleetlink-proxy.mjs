#!/usr/bin/env node
// The standalone tunnel proxy (`npx fleetlink-proxy`, `npm run proxy`): the bundle in dist/ on plain
// Node when it was built from the sources as they are now (`npm run build`), else the sources
// through tsx (a checkout being worked on).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const entry = here('../dist/cli.mjs');

function bundleIsCurrent() {
  if (!existsSync(entry)) return false;
  if (!existsSync(here('../src'))) return true; // an installed package: dist is all there is
  try {
    const built = statSync(entry).mtimeMs;
    const inputs = JSON.parse(readFileSync(here('../dist/inputs.json'), 'utf8'));
    return inputs.every((f) => existsSync(here(`../${f}`)) && statSync(here(`../${f}`)).mtimeMs <= built);
  } catch {
    return false;
  }
}

if (bundleIsCurrent()) {
  await import(entry);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
