import { z } from 'zod';
import { messages, requiredText, withoutControlCharacters } from '../forms/messages.js';

/**
 * Personal API tokens (issue 62): a script calls the API as its owner with `Authorization: Bearer
 * flt_…`. The prefix lets secret scanners recognise a leaked one; the console keeps only its SHA-256.
 */
export const API_TOKEN_PREFIX = 'flt_';
/** `flt_` and 32 random bytes in base64url. */
export const apiTokenSecretPattern = /^flt_[A-Za-z0-9_-]{43}$/;

export const apiTokenLimits = {
  name: 64,
  /** Days a token lives when the form does not say. */
  defaultDays: 90,
  maxDays: 365,
  /** Tokens one person may hold at once (revoked and expired ones do not count). */
  perUser: 50,
  /** Organizations one token may be limited to. */
  organizations: 100,
} as const;

/** "Read only" may GET and HEAD; "read and write" may do whatever its owner may. */
export const apiTokenScopes = ['READ', 'WRITE'] as const;
export type ApiTokenScope = (typeof apiTokenScopes)[number];
export const apiTokenScopeLabels: Record<ApiTokenScope, string> = { READ: 'Read only', WRITE: 'Read and write' };
/** The methods a read-only token may use. */
export const READ_ONLY_METHODS: readonly string[] = ['GET', 'HEAD'];

export const apiTokenFormSchema = z.object({
  name: requiredText('Name', apiTokenLimits.name).refine(withoutControlCharacters, messages.controlCharacters('Name')),
  scope: z.enum(apiTokenScopes, { error: 'Scope must be READ or WRITE.' }),
  /** Days from now; null for a token that never expires, only where the operator allows it. */
  expiresInDays: z
    .number({ error: 'Expiry must be a number of days.' })
    .int('Expiry must be a whole number of days.')
    .min(1, messages.min('Expiry', 1))
    .max(apiTokenLimits.maxDays, messages.max('Expiry', apiTokenLimits.maxDays))
    .nullable()
    .default(apiTokenLimits.defaultDays),
  /** Organization ids the token is limited to; empty for every organization its owner belongs to. */
  organizations: z
    .array(z.uuid('An organization id is not valid.'))
    .max(apiTokenLimits.organizations, `A token can be limited to at most ${apiTokenLimits.organizations} organizations.`)
    .default([]),
});
export type ApiTokenFormInput = z.input<typeof apiTokenFormSchema>;
export type ApiTokenForm = z.output<typeof apiTokenFormSchema>;

export const apiTokenParamsSchema = z.object({ id: z.uuid('The token id is not valid.') });

/** A token as lists show it: never its secret. */
export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(apiTokenScopes),
  /** The organizations it is limited to (their names as they are now); null for all of its owner's. */
  organizations: z.array(z.object({ id: z.string(), name: z.string().nullable() })).nullable(),
  owner: z.object({ subject: z.string(), username: z.string().nullable() }),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedAddress: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The answer to a create: the token, and its secret, shown this once. */
export const apiTokenCreatedSchema = apiTokenSchema.extend({ secret: z.string() });
export type ApiTokenCreated = z.infer<typeof apiTokenCreatedSchema>;

export const apiTokenListSchema = z.object({
  items: z.array(apiTokenSchema),
  /** Whether the operator allows tokens that never expire (`API_TOKEN_ALLOW_NO_EXPIRY`). */
  noExpiryAllowed: z.boolean(),
});
export type ApiTokenList = z.infer<typeof apiTokenListSchema>;

/** Every user's tokens, for a realm ADMIN: the newest first, at most this many. */
export const ALL_API_TOKENS_MAX = 1000;

export const apiTokenRoutes = {
  list: { method: 'GET', path: '/api-tokens', role: 'LOGIN' },
  create: { method: 'POST', path: '/api-tokens', role: 'LOGIN', errors: [409] },
  revoke: { method: 'DELETE', path: '/api-tokens/:id', role: 'LOGIN' },
  all: { method: 'GET', path: '/all-api-tokens', role: 'ADMIN' },
} as const;
