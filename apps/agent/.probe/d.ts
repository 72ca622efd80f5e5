import { z } from 'zod/mini';
(globalThis as any).x = z.object({ a: z.string() });
