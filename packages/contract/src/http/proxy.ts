import { z } from 'zod';
import { tunnelTypeSchema } from '../forms/tunnel-form.js';

/**
 * The console's API for tunnel proxies (DESIGN §6): the one seam between a proxy and the console. A
 * proxy authenticates with HTTP Basic, its PROXY server's id as the username and that server's
 * password; none of these routes takes a person's token.
 */
export const proxyRoutes = {
  /** A device's SSH login at the proxy: its id and its own MQTT password. */
  deviceLogin: { method: 'POST', path: '/api/proxy/device-login' },
  /** A device asks the proxy to forward one of its ports: which tunnel that is, and its security. */
  forward: { method: 'POST', path: '/api/proxy/forward' },
  /** The proxy says a tunnel is connected (with its mapping) or disconnected. */
  state: { method: 'POST', path: '/api/proxy/tunnel-state' },
  /** Whether a host name belongs to a registered tunnel (the ingress then says 'not connected', not 'no such tunnel'). */
  hostKnown: { method: 'POST', path: '/api/proxy/host-known' },
  /** A proxy (re)starting: none of the tunnels it served before is connected any more. */
  hello: { method: 'POST', path: '/api/proxy/hello' },
  /**
   * The devices whose SSH connections at this proxy must end since a cursor (deleted, re-keyed, or
   * moved off this proxy), whichever console the change was made on. A proxy asks every second.
   */
  revocations: { method: 'POST', path: '/api/proxy/revocations' },
} as const;

export const proxyDeviceLoginSchema = z.object({ username: z.string().min(1).max(64), password: z.string().min(1).max(256) });
/**
 * `credential` names the device's credentials as they were at this login (not a secret): each forward
 * of the connection names it, and the console refuses a forward once they have changed (a key reset).
 */
export const proxyDeviceLoginResultSchema = z.object({ deviceId: z.uuid(), credential: z.string().min(1).max(128) });

export const proxyForwardRequestSchema = z.object({ deviceId: z.uuid(), port: z.number().int().min(1).max(65535), credential: z.string().min(1).max(128) });
/**
 * What the proxy needs to serve a tunnel: where an HTTP one is (`{path}.{customDomain}`, or on the
 * proxy's own domain when customDomain is null; both null for TCP), the allow-list (addresses and
 * CIDR ranges; empty means any address) and the Basic credentials (a password hash from
 * `hashTunnelPassword`; null means none).
 */
export const proxyForwardSchema = z.object({
  tunnelId: z.uuid(),
  type: tunnelTypeSchema,
  path: z.string().nullable(),
  customDomain: z.string().nullable(),
  allow: z.array(z.string()),
  username: z.string().nullable(),
  passwordHash: z.string().nullable(),
});
export type ProxyForward = z.infer<typeof proxyForwardSchema>;

export const proxyTunnelStateSchema = z.object({
  tunnelId: z.uuid(),
  deviceId: z.uuid(),
  state: z.enum(['CONNECTED', 'DISCONNECTED']),
  mapping: z.string().max(512).nullable(),
  /** With DISCONNECTED: why the proxy refused to serve the device's tunnel (no port free, the device at its share), for the person connecting it. */
  refusal: z.string().max(512).nullable().optional(),
});
export type ProxyTunnelState = z.infer<typeof proxyTunnelStateSchema>;

/** A host name the ingress was asked for, as a path on a custom domain or (null) on the proxy's own. */
export const proxyHostKnownRequestSchema = z.object({ path: z.string().min(1).max(255), customDomain: z.string().min(1).max(255).nullable() });
/** A proxy starting says which domain it serves tunnels on (`{path}.{domain}`, `{domain}:{port}`). */
export const proxyHelloSchema = z.object({ domain: z.string().min(1).max(255) });
export const proxyHostKnownSchema = z.object({ known: z.boolean() });

/** Revocations after `after` (null: none, only the cursor to start from). Cursors are opaque. */
export const proxyRevocationsRequestSchema = z.object({ after: z.string().regex(/^\d{1,19}$/).nullable() });
/** The devices to end connections of, and the cursor to ask from next; `more` when a page was full. */
export const proxyRevocationsSchema = z.object({ cursor: z.string(), devices: z.array(z.uuid()), more: z.boolean() });
export type ProxyRevocations = z.infer<typeof proxyRevocationsSchema>;

/**
 * The ports a proxy serves TCP tunnels on, as configured (`20000-20999`, or one port): the console's
 * built-in proxy and a standalone one read it alike.
 */
export const tcpPortRangeSchema = z
  .string()
  .trim()
  .regex(/^\d{1,5}(-\d{1,5})?$/, 'must be a port or a range of ports, e.g. 20000-20999')
  .transform((v) => {
    const [from, to = from] = v.split('-').map(Number) as [number, number?];
    return { from, to: to! };
  })
  .refine((r) => r.from >= 1 && r.to <= 65535 && r.from <= r.to, 'must be ports between 1 and 65535, the lower one first');
