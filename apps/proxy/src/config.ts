import { tcpPortRangeSchema } from '@fleetlink/contract';
import { z } from 'zod';

const port = z.coerce.number().int().min(1).max(65535);
const isLoopback = (h: string) => ['localhost', '::1', '[::1]'].includes(h.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(h);
const host = z.string().trim().min(1);

/**
 * A standalone proxy's configuration (`npx fleetlink-proxy`), from its environment: where the
 * console is and which PROXY server this proxy is there (an administrator registers it under
 * Servers with the public host key this proxy prints), where it listens, and its domain.
 */
const configSchema = z
  .object({
    /** The console's base URL: the proxy calls its `/api/proxy/…` routes. */
    FLEETLINK_CONSOLE_URL: z.url().transform((u) => u.replace(/\/+$/, '')),
    /** The PROXY server's id at the console, and its password (the server form's Password). */
    PROXY_SERVER_ID: z.uuid('must be the id of the PROXY server registered at the console'),
    PROXY_PASSWORD: z.string().min(1),
    /** The SSH host key (OpenSSH private key); made and written there on the first start. */
    PROXY_HOST_KEY_FILE: z.string().min(1).default('fleetlink-proxy-host-key'),
    PROXY_SSH_HOST: host.default('0.0.0.0'),
    PROXY_SSH_PORT: port.default(2222),
    PROXY_HTTP_HOST: host.default('0.0.0.0'),
    /** 8080 for plain HTTP; with a certificate, 8443. */
    PROXY_HTTP_PORT: port.optional(),
    PROXY_TCP_HOST: host.default('0.0.0.0'),
    PROXY_TCP_PORTS: tcpPortRangeSchema.prefault('20000-20999'),
    /** TCP tunnels one device may have connected here: one device does not take the range from the others. */
    PROXY_TCP_MAX_PER_DEVICE: z.coerce.number().int().min(1).max(65535).default(10),
    /** HTTP tunnels at `{path}.{PROXY_DOMAIN}`, TCP ones at `{PROXY_DOMAIN}:{port}`. */
    PROXY_DOMAIN: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, 'must be a domain name, e.g. tunnels.example.com'),
    /** A certificate (PEM, with its chain) and its key for the ingress: then it serves HTTPS. */
    PROXY_TLS_CERT_FILE: z.string().min(1).optional(),
    PROXY_TLS_KEY_FILE: z.string().min(1).optional(),
    /** Serves Prometheus metrics at /metrics on this port, a listener of its own (issue 67); unset: none. */
    PROXY_METRICS_PORT: port.optional(),
    /** Where the metrics listener binds; anything but loopback needs PROXY_METRICS_TOKEN. */
    PROXY_METRICS_HOST: host.default('127.0.0.1'),
    /** A bearer token a scraper must send; at least 16 characters. */
    PROXY_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .refine((c) => !c.PROXY_METRICS_PORT || c.PROXY_METRICS_TOKEN || isLoopback(c.PROXY_METRICS_HOST), {
    message: 'must be set when PROXY_METRICS_HOST is not a loopback address: the metrics would be open to anyone who can reach it',
    path: ['PROXY_METRICS_TOKEN'],
  })
  .refine((c) => !c.PROXY_TLS_CERT_FILE === !c.PROXY_TLS_KEY_FILE, {
    message: 'PROXY_TLS_CERT_FILE and PROXY_TLS_KEY_FILE go together: set both for HTTPS, or neither',
    path: ['PROXY_TLS_KEY_FILE'],
  });

export type ProxyConfig = z.output<typeof configSchema>;

/** The configuration, or every problem with it in one message, each naming its variable. */
export function parseProxyConfig(source: Record<string, string | undefined>): ProxyConfig {
  const parsed = configSchema.safeParse(source);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => {
    const missing = i.code === 'invalid_type' && source[String(i.path[0])] === undefined;
    return `${i.path.join('.')}: ${missing ? 'is required' : i.message}`;
  });
  throw new Error(`Invalid configuration: ${problems.join('; ')}`);
}
