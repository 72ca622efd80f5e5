import { z } from 'zod';
import { monitorTypeSchema } from '../forms/monitor-form.js';

/** `/api/device/{id}/monitor/{monitorId}`: malformed ids are a 400 with a clear message. */
export const monitorParamsSchema = z.object({
  id: z.uuid({ error: 'The device id is not valid.' }),
  monitorId: z.uuid({ error: 'The monitor id is not valid.' }),
});

/**
 * A monitor (SPEC §3: id, name, type, path) with what its device last reported about it. `value`
 * is the raw reading: UPDATE an ISO time, SIZE a whole number of bytes, VERSION the text the file
 * declares; null when there is none (the path is missing, or the agent has not evaluated it yet),
 * and then `note` says why. A reading with a `note` is partial (a folder too big to count in time).
 */
export const monitorSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  type: monitorTypeSchema,
  path: z.string(),
  value: z.string().nullable(),
  note: z.string().nullable(),
  /** When the agent last evaluated it (ISO); null before the first time. */
  observedAt: z.string().nullable(),
});
export type Monitor = z.infer<typeof monitorSchema>;

/** The property under which a monitor's value is reported (SPEC §3 `monitor:{name}`). */
export const monitorPropertyKey = (name: string) => `monitor:${name}`;

/** The routes of the monitors capability (SPEC §7), all under /api. */
export const monitorRoutes = {
  create: { method: 'POST', path: '/api/device/:id/monitor', role: 'USER', errors: [409] },
  get: { method: 'GET', path: '/api/device/:id/monitor/:monitorId', role: 'USER' },
  update: { method: 'PUT', path: '/api/device/:id/monitor/:monitorId', role: 'USER', errors: [409] },
  remove: { method: 'DELETE', path: '/api/device/:id/monitor/:monitorId', role: 'USER' },
} as const;
