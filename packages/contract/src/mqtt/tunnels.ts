import { z } from 'zod';
import { TUNNEL_HOST_MAX } from '../forms/tunnel-form.js';

/**
 * `tunnel.open`: the agent opens a reverse forward of `port` at its proxy (an SSH server at
 * `proxy.url`, `ssh://host:port`, whose host key must be `proxy.hostKey`) and connects what comes
 * through it to `host:port` on the device. It answers once the proxy has accepted the forward, or
 * with the reason it did not.
 */
export const tunnelOpenRequestSchema = z.object({
  tunnelId: z.string().min(1).max(64),
  port: z.number().int().min(1).max(65535),
  host: z.string().min(1).max(TUNNEL_HOST_MAX),
  proxy: z.object({ url: z.string().min(1).max(1024), hostKey: z.string().min(1).max(16384) }),
});
export type TunnelOpenRequest = z.infer<typeof tunnelOpenRequestSchema>;

/** `tunnel.close`: the agent cancels the forward of `port` (nothing to do when there is none). */
export const tunnelCloseRequestSchema = z.object({ tunnelId: z.string().min(1).max(64), port: z.number().int().min(1).max(65535) });
export type TunnelCloseRequest = z.infer<typeof tunnelCloseRequestSchema>;
