#!/usr/bin/env node
// Runs the bundled agent (npm run build -w apps/agent) when it is newer than the sources: plain
// Node, small footprint. Otherwise the TypeScript sources through tsx, with no build step.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/cli.mjs', import.meta.url));
const src = fileURLToPath(new URL('../src', import.meta.url));

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${entry.name}`;
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

if (existsSync(dist) && (!existsSync(src) || statSync(dist).mtimeMs >= newestSource(src))) {
  await import(dist);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
