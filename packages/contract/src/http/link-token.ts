import { z } from 'zod';

const NO_TOKEN = 'This link has no token: use the whole link the console handed out.';

/** The `?token=` of a one-time link the console hands out (a blob URL, an audit export). */
export const linkTokenQuerySchema = z.object({
  token: z.string({ error: NO_TOKEN }).min(1, NO_TOKEN).max(128, 'This link’s token is not valid.'),
});
