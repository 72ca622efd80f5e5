import { z } from 'zod';
import { messages, withoutControlCharacters } from './messages.js';

export const TUNNEL_NAME_MAX = 64;
/** The name input accepts more than the rule allows, so the message shows instead of a cut (SPEC §5). */
export const TUNNEL_NAME_INPUT_MAX = 255;
export const TUNNEL_PATH_MAX = 64;
export const TUNNEL_CREDENTIAL_MAX = 255;
export const TUNNEL_HOST_MAX = 253;
export const TUNNEL_SECURITY_IP_MAX = 2048;
export const TUNNEL_DEFAULT_NAME = 'Tunnel';
export const TUNNEL_DEFAULT_HOST = 'localhost';
/** A device's tunnels: each is a card on the Network tab and a forward the agent keeps open. */
export const TUNNELS_PER_DEVICE_MAX = 50;

export const tunnelTypes = ['HTTP', 'TCP'] as const;
export const tunnelTypeSchema = z.enum(tunnelTypes, { error: messages.required('Type') });
export type TunnelType = z.infer<typeof tunnelTypeSchema>;

/** SPEC §4: EPHEMERAL closes when the device stops or restarts; PERMANENT is recreated when it starts. */
export const tunnelModes = ['EPHEMERAL', 'PERMANENT'] as const;
export const tunnelModeSchema = z.enum(tunnelModes, { error: messages.required('Mode') });
export type TunnelMode = z.infer<typeof tunnelModeSchema>;
export const tunnelModeLabel: Record<TunnelMode, string> = { EPHEMERAL: 'Ephemeral', PERMANENT: 'Permanent' };

/** SPEC §5: a lowercase letter, then lowercase letters, digits, underscore or hyphen; a DNS label. */
export const TUNNEL_PATH_PATTERN = /^[a-z][a-z0-9_-]*$/;

/** A host name or an address: where the agent forwards to, on the device's side. */
const HOST_PATTERN = /^([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$|^\[?[0-9A-Fa-f:.]+\]?$/;

const ipEntry = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]);

/** The entries of a comma-separated allow-list, trimmed, empty ones left out. */
export const allowListEntries = (text: string | null | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** True when every entry is an IPv4/IPv6 address or CIDR range. */
export const isAllowList = (text: string) => allowListEntries(text).every((e) => ipEntry.safeParse(e).success);

/** The sub-domain label suggested from a tunnel's name ('My App 2' → 'my-app-2'). */
export function suggestTunnelPath(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .replace(/-+$/, '')
    .slice(0, TUNNEL_PATH_MAX);
  return slug || 'tunnel';
}

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, messages.maxLength(label, max))
    .refine(withoutControlCharacters, `${label} cannot contain control characters.`)
    .nullish()
    .transform((v) => (v ? v : null));

/**
 * The tunnel form (SPEC §2, §5): the same schema validates the form and the bodies of
 * POST /api/device/{id}/tunnel and PUT …/tunnel/{tunnelId}. Domain, path, host and security are for
 * HTTP tunnels. An empty password on an update keeps the one set; an empty username removes both.
 */
export const tunnelFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .max(TUNNEL_NAME_MAX, messages.maxLength('Name', TUNNEL_NAME_MAX))
      .refine(withoutControlCharacters, 'Name cannot contain control characters.')
      .nullish()
      .transform((v) => v || TUNNEL_DEFAULT_NAME),
    type: tunnelTypeSchema.default('HTTP'),
    // The form holds what was typed: nothing is 'required', anything else not a whole number 'invalid'.
    port: z.preprocess(
      (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v.trim()) : v),
      z
        .number({ error: (issue) => (issue.input === undefined ? messages.required('Port') : messages.pattern('Port')) })
        .int(messages.pattern('Port'))
        .min(1, messages.min('Port', 1))
        .max(65535, messages.max('Port', 65535)),
    ),
    mode: tunnelModeSchema.default('EPHEMERAL'),
    /** One of the organization's ACTIVE custom domains; null is the proxy's own domain. */
    domainId: z.uuid({ error: 'The domain is not valid.' }).nullish().transform((v) => v ?? null),
    path: optionalText('Path', TUNNEL_PATH_MAX).refine((v) => v === null || TUNNEL_PATH_PATTERN.test(v), messages.pattern('Path')),
    host: optionalText('Host', TUNNEL_HOST_MAX).refine((v) => v === null || HOST_PATTERN.test(v), messages.pattern('Host')),
    securityIp: optionalText('IP', TUNNEL_SECURITY_IP_MAX)
      .refine((v) => v === null || isAllowList(v), 'IP must be a comma-separated list of addresses or CIDR ranges (e.g. 203.0.113.7, 10.0.0.0/8).')
      .transform((v) => (v === null ? null : allowListEntries(v).join(', ') || null)),
    securityUsername: optionalText('Username', TUNNEL_CREDENTIAL_MAX).refine((v) => v === null || !v.includes(':'), 'Username cannot contain a colon.'),
    securityPassword: z
      .string()
      .max(TUNNEL_CREDENTIAL_MAX, messages.maxLength('Password', TUNNEL_CREDENTIAL_MAX))
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .superRefine((form, ctx) => {
    if (form.securityPassword !== null && form.securityUsername === null) {
      ctx.addIssue({ code: 'custom', path: ['securityUsername'], message: messages.required('Username') });
    }
  });
export type TunnelForm = z.infer<typeof tunnelFormSchema>;
export type TunnelFormInput = z.input<typeof tunnelFormSchema>;

/** Initial values of a new tunnel (SPEC §5: HTTP, EPHEMERAL, 'Tunnel'). */
export const tunnelFormDefaults = {
  name: TUNNEL_DEFAULT_NAME,
  type: 'HTTP' as TunnelType,
  port: '' as number | '',
  mode: 'EPHEMERAL' as TunnelMode,
  domainId: null as string | null,
  path: '',
  host: TUNNEL_DEFAULT_HOST,
  securityIp: '',
  securityUsername: '',
  securityPassword: '',
};
