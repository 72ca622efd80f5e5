import * as c from '../../../packages/contract/src/mqtt/index.js';
(globalThis as any).x = c;
