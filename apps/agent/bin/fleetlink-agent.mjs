#!/usr/bin/env node
// The agent is TypeScript run through tsx, so it needs no build step on the device.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
