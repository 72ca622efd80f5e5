import { z } from 'zod';
(globalThis as any).x = z.object({ a: z.string() });
