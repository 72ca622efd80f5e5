import { z } from 'zod';

/** What the SPA needs to find its identity provider; served unauthenticated at GET /api/config. */
export const publicConfigSchema = z.object({
  oidc: z.object({
    authority: z.string(),
    clientId: z.string(),
    scope: z.string(),
  }),
  /** `UPLOAD_MAX_BYTES`: the page refuses a bigger file before sending it. */
  uploadMaxBytes: z.number().int().positive(),
  /** `OIDC_ROLE_CLAIM` and `OIDC_ROLE_MAP`: the page grants what the API grants (issue 62). */
  roleMapping: z.object({ claim: z.string(), map: z.record(z.string(), z.array(z.string())) }).nullable().default(null),
  /** The built-in provider is the issuer: its accounts are managed in the console (Manage → People, issue 72). */
  accounts: z.boolean().default(false),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** The signed-in user as the API sees it (GET /api/me). */
export const meSchema = z.object({
  subject: z.string(),
  sessionId: z.string().nullable(),
  username: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  realmRoles: z.array(z.string()),
  clientRoles: z.record(z.string(), z.array(z.string())),
  /** What the console grants: the realm roles and the client roles of its own client (`grantedRoles`). */
  roles: z.array(z.string()),
});
export type Me = z.infer<typeof meSchema>;
