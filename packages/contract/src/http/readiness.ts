import { z } from 'zod';

/**
 * GET /api/ready (issue 67), for a load balancer: 200 with this while the database answers and the
 * console is connected to a message server (or none is registered); otherwise 503 with a message
 * saying which. One unreachable broker among several leaves a console ready: devices on the
 * others still work through it.
 */
export const readinessSchema = z.object({
  status: z.literal('ready'),
  /** The MESSAGE servers registered, and how many of them this console is connected to. */
  messageServers: z.object({ connected: z.number().int(), total: z.number().int() }),
});
export type Readiness = z.infer<typeof readinessSchema>;
