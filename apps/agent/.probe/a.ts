import * as c from '@fleetlink/contract';
(globalThis as any).x = c;
