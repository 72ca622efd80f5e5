import {
  BUNDLE_MAX_BYTES_DEFAULT,
  euCountryCodes,
  JOB_CONCURRENCY_DEFAULT,
  parseOrganizationMap,
  parseRoleMap,
  tcpPortRangeSchema,
  TERMINAL_IDLE_MINUTES_DEFAULT,
  TERMINAL_MAX_SESSIONS_DEFAULT,
  UPLOAD_MAX_BYTES_DEFAULT,
} from '@fleetlink/contract';
import { isIP } from 'node:net';
import { z } from 'zod';

/** An address, a CIDR or a proxy-addr preset name. */
function isProxyEntry(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}

/** A map variable parsed by `parse`, whose error names the variable and the entry at fault. */
const mapVariable = <T>(parse: (text: string) => T) =>
  z
    .string()
    .default('')
    .transform((text, ctx) => {
      try {
        return parse(text);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });

const seededPassword = (name: string) => z.string().min(12, `${name} must be at least 12 characters long`).optional();

/**
 * Configuration, parsed once at start. Every part has an embedded default so `npm start` on a fresh
 * machine needs no variables; production overrides them.
 */
const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    /** Loopback by default: a console reachable from elsewhere gets generated passwords for its seeded accounts. */
    HOST: z.string().trim().min(1).default('127.0.0.1'),
    /** Public base URL of the console; derived from PORT when unset. */
    PUBLIC_URL: z.string().url().optional(),
    /**
     * The reverse proxies whose X-Forwarded-For, -Proto and -Host count: addresses and CIDRs, comma
     * separated (or proxy-addr's `loopback`, `linklocal`, `uniquelocal`). Empty trusts no one, so a
     * client cannot choose the address limits count it by, nor the host the provider names.
     */
    TRUST_PROXY: z
      .string()
      .default('')
      .transform((list) => list.split(',').map((entry) => entry.trim()).filter(Boolean))
      .refine((entries) => entries.every(isProxyEntry), {
        message: 'TRUST_PROXY must list proxy addresses or CIDRs, comma separated (such as 10.0.0.5, 10.1.0.0/16)',
      }),
    DATA_DIR: z.string().default('./data'),
    /**
     * Seals the secrets kept in the database (servers' passwords, the provider's keys, the key
     * device passwords derive from). Unset: a key made once in DATA_DIR/secret.key.
     */
    SECRET_KEY: z.string().trim().min(32, 'SECRET_KEY must be at least 32 characters (openssl rand -base64 32 makes one)').optional(),
    /** postgres://… selects PostgreSQL; unset means embedded PGlite under DATA_DIR. */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
      .optional(),
    /** External OIDC issuer (e.g. a Keycloak realm URL); unset means the built-in provider at /idp. */
    OIDC_ISSUER: z.string().url().optional(),
    OIDC_CLIENT_ID: z.string().default('fleetlink-console'),
    /** Expected `aud` of access tokens, with either provider; `none` turns the check off (an external issuer that cannot add one). */
    OIDC_AUDIENCE: z.string().trim().min(1, 'OIDC_AUDIENCE must name an audience, or be none').default('fleetlink-api'),
    OIDC_SCOPE: z.string().default('openid profile email'),
    /**
     * Identity mapping (issue 62): the access token's claim holding the person's groups (`groups`,
     * or a dotted path); OIDC_ROLE_MAP and OIDC_ORG_MAP map its values.
     */
    OIDC_ROLE_CLAIM: z.string().trim().min(1).default('groups'),
    /** `/fleet-admins=ADMIN,/fleet-users=USER`: realm roles granted by groups, beside the token's own. */
    OIDC_ROLE_MAP: mapVariable(parseRoleMap),
    /** `/acme-ops=<organization id>:ADMIN`: organizations whose members a group makes, at each sign-in. */
    OIDC_ORG_MAP: mapVariable(parseOrganizationMap),
    /** Requests one personal API token may make per minute (429 with Retry-After past it). */
    API_TOKEN_RATE_LIMIT: z.coerce.number().int().min(1).default(600),
    /** A token whose owner has not signed in for this many days stops working (the person left the provider). */
    API_TOKEN_OWNER_DAYS: z.coerce.number().int().min(1).default(90),
    /** Whether people may create API tokens that never expire. */
    API_TOKEN_ALLOW_NO_EXPIRY: z
      .enum(['true', 'false'], { error: 'API_TOKEN_ALLOW_NO_EXPIRY must be true or false.' })
      .default('false')
      .transform((v) => v === 'true'),
    /** Built-in provider: the seeded accounts' passwords, instead of the well-known or generated ones. */
    IDP_ADMIN_PASSWORD: seededPassword('IDP_ADMIN_PASSWORD'),
    IDP_USER_PASSWORD: seededPassword('IDP_USER_PASSWORD'),
    IDP_GUEST_PASSWORD: seededPassword('IDP_GUEST_PASSWORD'),
    /** Built-in provider: failed sign-ins of one login before each further one doubles the wait (2 s, 4 s, …). */
    SIGN_IN_LIMIT_ACCOUNT: z.coerce.number().int().min(1).default(5),
    /** Built-in provider: the same per client address, which people behind one NAT share. */
    SIGN_IN_LIMIT_ADDRESS: z.coerce.number().int().min(1).default(20),
    /** Built-in provider: the longest wait after failed sign-ins, in seconds. */
    SIGN_IN_MAX_DELAY: z.coerce.number().int().min(1).default(900),
    /** Built-in provider: access token lifetime in seconds (short values let tests exercise refresh). */
    IDP_ACCESS_TOKEN_TTL: z.coerce.number().int().min(30).default(300),
    /** Host a custom domain's CNAME record must point to: the tunnel proxy's HTTP ingress. */
    TUNNEL_PROXY_HOST: z.string().trim().min(1).default('proxy.localhost'),
    /** DNS servers for custom-domain checks, comma-separated `ip` or `ip:port`; unset means the system's. */
    DNS_SERVERS: z
      .string()
      .optional()
      .transform((v) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : [])),
    /** Seconds between re-checks of custom domains' CNAME records. */
    DOMAIN_CHECK_INTERVAL: z.coerce.number().int().min(1).default(300),
    /** Port of the built-in MQTT broker (Aedes); 0 disables it. */
    MQTT_EMBEDDED_PORT: z.coerce.number().int().min(0).max(65535).default(1884),
    /** Device connections the built-in broker takes a second (issue 67); past it they are refused as 'server unavailable' and agents try again after a random wait. */
    MQTT_CONNECT_RATE: z.coerce.number().int().min(1).max(1_000_000).default(500),
    /** Device messages a console reads and has not handled yet, at most (issue 70): past it, it reads no more until half are done; the rest waits at the message server. */
    MQTT_MAX_BACKLOG: z.coerce.number().int().min(10).max(1_000_000).default(5000),
    /**
     * The keepalive of a console's sessions with its message servers: a server silent for 1.5 of
     * them (no answer to a ping) ends the session, and the console connects again.
     */
    MQTT_KEEPALIVE_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
    /** Address the built-in broker listens on and agents are told to connect to. */
    MQTT_EMBEDDED_HOST: z.string().trim().min(1).default('127.0.0.1'),
    /** SSH port of the built-in tunnel proxy, which agents open their tunnels to; 0 disables the proxy. */
    TUNNEL_SSH_PORT: z.coerce.number().int().min(0).max(65535).default(2222),
    /** Address the built-in proxy's SSH server listens on and agents are sent to. */
    TUNNEL_SSH_HOST: z.string().trim().min(1).default('127.0.0.1'),
    /** Port of the built-in proxy's HTTP ingress, where HTTP tunnels are served. */
    TUNNEL_HTTP_PORT: z.coerce.number().int().min(1).max(65535).default(8081),
    /** Address the HTTP ingress listens on. */
    TUNNEL_HTTP_HOST: z.string().trim().min(1).default('127.0.0.1'),
    /**
     * A certificate (PEM, with its chain: a wildcard one for `*.{TUNNEL_DOMAIN}`) and its key: the
     * built-in proxy's ingress then serves HTTPS and HTTP tunnel mappings are https links, as a
     * standalone proxy's with PROXY_TLS_CERT_FILE.
     */
    TUNNEL_TLS_CERT_FILE: z.string().trim().min(1).optional(),
    TUNNEL_TLS_KEY_FILE: z.string().trim().min(1).optional(),
    /** Address the built-in proxy's TCP tunnels listen on. */
    TUNNEL_TCP_HOST: z.string().trim().min(1).default('127.0.0.1'),
    /** Ports the built-in proxy serves TCP tunnels on, one per connected tunnel (`from-to`). */
    TUNNEL_TCP_PORTS: tcpPortRangeSchema.prefault('20000-20999'),
    /** TCP tunnels one device may have connected at the built-in proxy: one device does not take the range from the others. */
    TUNNEL_TCP_MAX_PER_DEVICE: z.coerce.number().int().min(1).max(65535).default(10),
    /** HTTP tunnels are served at `{path}.{TUNNEL_DOMAIN}` (`localhost` needs no DNS in a browser), TCP ones at `{TUNNEL_DOMAIN}:{port}`. */
    TUNNEL_DOMAIN: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, 'TUNNEL_DOMAIN must be a domain name, e.g. tunnels.example.com')
      .default('localhost'),
    /** Seconds between agent heartbeats; three missed ones mark a device offline. */
    AGENT_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    /** Seconds between agents' systemLoad samples. */
    AGENT_METRICS_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    /** Seconds between latency pings of an online device. */
    DEVICE_PING_SECONDS: z.coerce.number().int().min(1).default(300),
    /** Agent enrollment attempts per client address and minute. */
    ENROLL_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
    /**
     * Enrollments one console works on at once (issue 67); past it agents are answered 429 with a
     * Retry-After of 5 to 30 s, so a fleet coming back together waits instead of piling up.
     */
    ENROLL_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(32),
    /** Serves Prometheus metrics at /metrics on this port (issue 67), a listener of its own, off the public API; unset: none. */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** The address the metrics listener binds to; anything but loopback needs METRICS_TOKEN. */
    METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
    /** A bearer token a scraper must send (`Authorization: Bearer …`); at least 16 characters. */
    METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
    /** Largest file a person may upload to a device, in bytes (the answer past it is 413). */
    UPLOAD_MAX_BYTES: z.coerce.number().int().min(1).default(UPLOAD_MAX_BYTES_DEFAULT),
    /** Seconds between sweeps of blobs nobody will fetch any more (expired or left by a crash). */
    BLOB_SWEEP_SECONDS: z.coerce.number().int().min(1).default(600),
    /**
     * A folder several consoles share for blobs and bundles (a network mount), instead of DATA_DIR's
     * own: a blob is read there only once it is complete, since another console may be writing it.
     */
    BLOB_DIR: z.string().trim().min(1).optional(),
    /** An S3-compatible blob store, shared by several consoles; unset means files under BLOB_DIR or DATA_DIR/blobs. */
    BLOB_S3_BUCKET: z.string().trim().min(1).optional(),
    /** Its endpoint (MinIO, Ceph, a cloud's); unset means AWS's for BLOB_S3_REGION. */
    BLOB_S3_ENDPOINT: z.string().url().optional(),
    BLOB_S3_REGION: z.string().trim().min(1).default('us-east-1'),
    BLOB_S3_ACCESS_KEY_ID: z.string().optional(),
    BLOB_S3_SECRET_ACCESS_KEY: z.string().optional(),
    /** Key prefix of the console's blobs in the bucket. */
    BLOB_S3_PREFIX: z.string().default('fleetlink/blobs/'),
    /** Key prefix of agent bundles in the bucket: apart from the blobs, which are swept. */
    BUNDLE_S3_PREFIX: z.string().default('fleetlink/bundles/'),
    /** Largest agent bundle an administrator may upload, in bytes (413 past it). */
    BUNDLE_MAX_BYTES: z.coerce.number().int().min(1).default(BUNDLE_MAX_BYTES_DEFAULT),
    /**
     * At the first start of a console with no release, register the agent it was built with as the
     * built-in release (PRODUCTION, its version), so the Install page offers downloads at once.
     */
    AGENT_BUILT_IN_RELEASE: z
      .enum(['true', 'false'], { error: 'AGENT_BUILT_IN_RELEASE must be true or false.' })
      .default('true')
      .transform((v) => v === 'true'),
    /** Path-style addressing (bucket in the path), which most self-hosted stores need. */
    BLOB_S3_FORCE_PATH_STYLE: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    /** Price of one device for a whole month, in EUR (`5` or `4.99`); invoices prorate it by days. */
    INVOICE_PRICE_PER_DEVICE_MONTH: z
      .string()
      .trim()
      .regex(/^\d{1,6}(\.\d{1,2})?$/, 'INVOICE_PRICE_PER_DEVICE_MONTH must be an amount in EUR such as 5 or 4.99')
      .default('5.00')
      .transform(cents),
    /** The seller printed on invoices: name, postal address, VAT number and EU country (ISO code). */
    INVOICE_SELLER_NAME: z.string().trim().min(1).default('Fleetlink'),
    INVOICE_SELLER_ADDRESS: z.string().trim().default(''),
    INVOICE_SELLER_VAT: z.string().trim().default(''),
    INVOICE_SELLER_COUNTRY: z.enum(euCountryCodes, 'INVOICE_SELLER_COUNTRY must be the ISO code of an EU country, such as NL').default('NL'),
    /** The seller's VAT rate in percent (`21`, `25.5`); unset means the standard rate of INVOICE_SELLER_COUNTRY. */
    INVOICE_VAT_RATE: z
      .string()
      .trim()
      .regex(/^\d{1,2}(\.\d{1,2})?$/, 'INVOICE_VAT_RATE must be a percentage such as 21 or 25.5')
      .transform(cents)
      .optional(),
    /** HMAC key that signs the contact form's CAPTCHA challenges; unset means one made at first start and kept in the database. */
    CAPTCHA_SECRET: z.string().min(32, 'CAPTCHA_SECRET must be at least 32 characters').optional(),
    /** PBKDF2 iterations per CAPTCHA attempt: a browser makes 1,000 to 2,000 attempts, about a second at the default. */
    CAPTCHA_COST: z.coerce.number().int().min(1).max(1_000_000).default(500),
    /** Seconds a CAPTCHA challenge can be answered in. */
    CAPTCHA_TTL_SECONDS: z.coerce.number().int().min(10).default(600),
    /** Mail server for contact messages (`smtp://user:pass@host:587`, `smtps://…`); unset means they are only stored. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^/]/, 'SMTP_URL must start with smtp:// or smtps:// and name a host')
      .optional(),
    /** Who receives contact messages; required with SMTP_URL. */
    CONTACT_TO: z.email('CONTACT_TO must be an email address').optional(),
    /** The From of contact mails: an address the mail server lets the console send as. */
    CONTACT_FROM: z.string().trim().min(1).optional(),
    /** Contact messages one account may send per hour. */
    CONTACT_RATE_LIMIT_USER: z.coerce.number().int().min(1).default(5),
    /** Contact messages one client address may send per hour. */
    CONTACT_RATE_LIMIT_ADDRESS: z.coerce.number().int().min(1).default(20),
    /** Minutes without a key pressed after which a web terminal session ends (issue 63); fractions allowed (0.5). */
    TERMINAL_IDLE_MINUTES: z.coerce.number().positive('TERMINAL_IDLE_MINUTES must be more than 0').max(24 * 60).default(TERMINAL_IDLE_MINUTES_DEFAULT),
    /** Web terminal sessions one device may have open at once, over all consoles. */
    TERMINAL_MAX_SESSIONS: z.coerce.number().int().min(1).max(100).default(TERMINAL_MAX_SESSIONS_DEFAULT),
    /**
     * Where the other consoles of this installation reach this one (http://10.0.0.5:8080), to hand
     * it a terminal's relay that the load balancer sent to them. Unset: this machine's loopback at
     * the port the console listens on, which serves consoles on one machine only.
     */
    CONSOLE_PEER_URL: z.string().url('CONSOLE_PEER_URL must be a URL such as http://10.0.0.5:8080').optional(),
    /** Fleet job commands one console has in flight at once (issue 64), so a 10,000-device job does not stampede the broker. */
    JOB_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(JOB_CONCURRENCY_DEFAULT),
    /** Whether cron expressions may have a sixth field, seconds, first (for tests and demos: a minute is long to wait). */
    JOB_CRON_SECONDS: z
      .enum(['true', 'false'], { error: 'JOB_CRON_SECONDS must be true or false.' })
      .default('false')
      .transform((v) => v === 'true'),
    /** How often each console looks for job work (due runs, expiries, devices to send to); a device coming online wakes it at once. */
    JOB_TICK_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
    /** How often staged rollouts are moved on (issue 65): devices' outcomes read, a halt or the next wave decided; one console at a time. */
    ROLLOUT_TICK_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
    /** How long a device that started updating to a rollout's release may take to come back on it before it counts as failed. */
    ROLLOUT_UPDATE_DEADLINE_MINUTES: z.coerce.number().min(0.05).max(24 * 60).default(15),
    /** How often alert rules are evaluated and due webhook deliveries sent (issue 66); one console at a time. */
    ALERT_TICK_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    /** The first retry of a failed webhook delivery waits this long, each next one twice as long (at most an hour), for 24 hours. */
    ALERT_RETRY_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
    /** Webhooks may target private and loopback addresses (a receiver on the operator's own network); link-local and metadata addresses never. */
    ALERT_WEBHOOK_PRIVATE_TARGETS: z
      .enum(['true', 'false'], { error: 'ALERT_WEBHOOK_PRIVATE_TARGETS must be true or false.' })
      .default('false')
      .transform((v) => v === 'true'),
    /** Every audit entry is also sent to this syslog collector (issue 66): tcp://host:514 or tls://host:6514, RFC 5424 with octet counting. */
    AUDIT_SYSLOG_URL: z
      .string()
      .regex(/^(tcp|tls):\/\/[^/:\s]+(:\d+)?\/?$/, 'AUDIT_SYSLOG_URL must be tcp://host:port or tls://host:port')
      .transform((v) => new URL(v))
      .optional(),
    /** A CA file to trust for a tls:// collector, beside the system's. */
    AUDIT_SYSLOG_CA_FILE: z.string().trim().min(1).optional(),
    /** Entries that may wait for a collector that is away; past it the oldest are skipped (the trail keeps them). */
    AUDIT_SYSLOG_BACKLOG_MAX: z.coerce.number().int().min(100).max(10_000_000).default(100_000),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .refine((e) => !e.TUNNEL_TLS_CERT_FILE === !e.TUNNEL_TLS_KEY_FILE, {
    path: ['TUNNEL_TLS_KEY_FILE'],
    message: 'TUNNEL_TLS_CERT_FILE and TUNNEL_TLS_KEY_FILE go together: set both for HTTPS tunnels, or neither',
  })
  .refine((e) => !e.METRICS_PORT || e.METRICS_TOKEN || listensOnLoopbackOnly({ HOST: e.METRICS_HOST }), {
    path: ['METRICS_TOKEN'],
    message: 'METRICS_TOKEN must be set when METRICS_HOST is not a loopback address: the metrics would be open to anyone who can reach it',
  })
  .refine((e) => !e.SMTP_URL || e.CONTACT_TO, { path: ['CONTACT_TO'], message: 'CONTACT_TO must be set when SMTP_URL is: it is where contact messages are mailed' })
  .transform((e) => {
    const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
    return { ...e, PUBLIC_URL: publicUrl, CONTACT_FROM: e.CONTACT_FROM ?? `Fleetlink <fleetlink@${new URL(publicUrl).hostname}>` };
  });

export type Env = z.infer<typeof envSchema>;

/** `4.99` → 499: a decimal with at most 2 places, in hundredths, without binary floating point. */
function cents(decimal: string): number {
  const [whole, fraction = ''] = decimal.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

export class ConfigError extends Error {}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  return result.data;
}

/** Whether the console listens on loopback only (127.0.0.0/8, ::1, localhost), out of other machines' reach. */
export const listensOnLoopbackOnly = (env: { HOST: string }): boolean => {
  const host = env.HOST.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
};

/** The group mapping of roles, or null when OIDC_ROLE_MAP is empty. */
export const roleMappingOf = (env: Pick<Env, 'OIDC_ROLE_CLAIM' | 'OIDC_ROLE_MAP'>) =>
  Object.keys(env.OIDC_ROLE_MAP).length ? { claim: env.OIDC_ROLE_CLAIM, map: env.OIDC_ROLE_MAP } : null;

/** Issuer the console trusts: the external one, or the built-in provider mounted under /idp. */
export const issuerOf = (env: Env) => env.OIDC_ISSUER ?? `${env.PUBLIC_URL}/idp`;
export const usesBuiltInIdp = (env: Env) => env.OIDC_ISSUER === undefined;
/** The audience the built-in provider stamps on its access tokens, whatever OIDC_AUDIENCE says. */
export const BUILT_IN_AUDIENCE = 'fleetlink-api';
/** The `aud` access tokens must carry; undefined when the operator turned the check off. */
export const audienceOf = (env: Env) =>
  usesBuiltInIdp(env) ? BUILT_IN_AUDIENCE : env.OIDC_AUDIENCE.toLowerCase() === 'none' ? undefined : env.OIDC_AUDIENCE;
