#!/usr/bin/env node
// The standalone tunnel proxy (`npx fleetlink-proxy`, `npm run proxy`): its TypeScript sources run
// through tsx, as the console's do; it needs no build.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
