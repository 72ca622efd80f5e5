import { z } from 'zod';

/** The one message the browser sends: its access token. */
export const liveHelloSchema = z.object({ token: z.string().min(1).max(16_384) });
export type LiveHello = z.infer<typeof liveHelloSchema>;

/**
 * What changed about a device, each part naming what the page reads again:
 * - `state`: online/offline, last response, latency;
 * - `reported`: properties, addresses, drives and monitor readings the agent reported;
 * - `metrics`: a load sample;
 * - `tunnels`: a tunnel's state or mapping, or the tunnel list;
 * - `monitors`: the monitor list;
 * - `drives`: a drive scan started or ended;
 * - `settings`: name, description, tags, branch, organization (a person edited it);
 * - `removed`: the device was deleted.
 */
export const livePartSchema = z.enum(['state', 'reported', 'metrics', 'tunnels', 'monitors', 'drives', 'settings', 'removed']);
export type LivePart = z.infer<typeof livePartSchema>;

export const liveDeviceChangeSchema = z.object({
  id: z.string(),
  /** Present when its online state changed: the new one. */
  online: z.boolean().optional(),
  parts: z.array(livePartSchema),
});
export type LiveDeviceChange = z.infer<typeof liveDeviceChangeSchema>;

export const liveMessageSchema = z.discriminatedUnion('type', [
  /**
   * The token was accepted; the stream ends at the token's expiry (ISO time). Null for a personal
   * API token, whose stream is checked every minute and ends when the token stops working.
   */
  z.object({ type: z.literal('ready'), expiresAt: z.string().nullable() }),
  /** Devices of the person's organizations that changed since the last message, one entry each. */
  z.object({ type: z.literal('devices'), changes: z.array(liveDeviceChangeSchema) }),
  /** Message servers or tunnel proxies changed (status, utilization): realm administrators only. */
  z.object({ type: z.literal('servers') }),
  /** Releases or their rollouts changed (a wave started or halted, devices took or failed one): realm administrators only. */
  z.object({ type: z.literal('releases') }),
  /** Fleet jobs of the person that changed (a run started or ended, results came in): their ids. */
  z.object({ type: z.literal('jobs'), ids: z.array(z.string()) }),
  /** The person's bell changed: an alert came in, or they read some on another page (issue 66). */
  z.object({ type: z.literal('alerts') }),
  /**
   * More changed than is worth telling one by one (or the console may have missed some): the page
   * reads again what it shows.
   */
  z.object({ type: z.literal('resync') }),
]);
export type LiveMessage = z.infer<typeof liveMessageSchema>;
