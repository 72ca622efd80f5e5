import { z } from 'zod';
import { DEVICE_CALL_ERRORS } from './route-errors.js';
import { tunnelModeSchema, tunnelTypeSchema } from '../forms/tunnel-form.js';

/** `/api/device/{id}/tunnel/{tunnelId}`: malformed ids are a 400 with a clear message. */
export const tunnelParamsSchema = z.object({
  id: z.uuid({ error: 'The device id is not valid.' }),
  tunnelId: z.uuid({ error: 'The tunnel id is not valid.' }),
});

/**
 * SPEC §3 Tunnel status. UNKNOWN while the device is offline or nothing was reported; `mapping` is
 * where the world reaches the tunnel (the proxy's URL for HTTP) while it is CONNECTED.
 */
export const tunnelStates = ['CONNECTED', 'DISCONNECTED', 'UNKNOWN'] as const;
export const tunnelStateSchema = z.enum(tunnelStates);
export type TunnelState = z.infer<typeof tunnelStateSchema>;
export const tunnelStatusSchema = z.object({ port: z.number().int(), state: tunnelStateSchema, mapping: z.string().nullable() });
export type TunnelStatus = z.infer<typeof tunnelStatusSchema>;

/**
 * SPEC §3 Tunnel, with its status. `securityPassword` is never returned (always null): the console
 * keeps only a hash, and `withSecurityCredentials` says whether a username and password are set.
 */
export const tunnelSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  type: tunnelTypeSchema,
  port: z.number().int(),
  mode: tunnelModeSchema,
  /** The domain the HTTP tunnel is served under: a custom domain, or the proxy's own. */
  domain: z.string(),
  domainId: z.string().nullable(),
  path: z.string().nullable(),
  /** Where the agent forwards to, on the device's side. */
  host: z.string(),
  securityIp: z.string().nullable(),
  securityUsername: z.string().nullable(),
  securityPassword: z.null(),
  withSecurityCredentials: z.boolean(),
  status: tunnelStatusSchema,
});
export type Tunnel = z.infer<typeof tunnelSchema>;

/** GET /api/device/{id}/tunnel-domains: the Domain choices of the form (null id: the proxy's own). */
export const tunnelDomainSchema = z.object({ id: z.string().nullable(), domain: z.string() });
export type TunnelDomain = z.infer<typeof tunnelDomainSchema>;

/** The message and tooltip texts of the Network tab (SPEC §2, §5). */
export const tunnelTexts = {
  deleteQuestion: (port: number) => `Delete tunnel for port ${port}?`,
  disconnectToEdit: 'Disconnect to edit',
  disconnectToRemove: 'Disconnect to remove',
  offline: 'Device is offline, unable to check the status',
};

/** The routes of the tunnels capability (SPEC §7), all under /api. */
export const tunnelRoutes = {
  create: { method: 'POST', path: '/api/device/:id/tunnel', role: 'USER', errors: [409] },
  list: { method: 'GET', path: '/api/device/:id/tunnel', role: 'USER' },
  get: { method: 'GET', path: '/api/device/:id/tunnel/:tunnelId', role: 'USER' },
  update: { method: 'PUT', path: '/api/device/:id/tunnel/:tunnelId', role: 'USER', errors: [409] },
  remove: { method: 'DELETE', path: '/api/device/:id/tunnel/:tunnelId', role: 'USER', errors: [409] },
  start: { method: 'POST', path: '/api/device/:id/tunnel/:tunnelId/start', role: 'USER', errors: DEVICE_CALL_ERRORS },
  stop: { method: 'POST', path: '/api/device/:id/tunnel/:tunnelId/stop', role: 'USER', errors: DEVICE_CALL_ERRORS },
  domains: { method: 'GET', path: '/api/device/:id/tunnel-domains', role: 'USER' },
} as const;
