import { z } from 'zod';

export const RealmRole = { User: 'USER', Admin: 'ADMIN' } as const;
export type RealmRole = (typeof RealmRole)[keyof typeof RealmRole];

/** What the SPA needs to find its identity provider; served unauthenticated at GET /api/config. */
export const publicConfigSchema = z.object({
  oidc: z.object({
    authority: z.string(),
    clientId: z.string(),
    scope: z.string(),
  }),
  /** `UPLOAD_MAX_BYTES`: the page refuses a bigger file before sending it. */
  uploadMaxBytes: z.number().int().positive(),
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
});
export type Me = z.infer<typeof meSchema>;
