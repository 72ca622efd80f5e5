import { z } from 'zod';

/** The `?token=` of a one-time link the console hands out (a blob URL, an audit export). */
export const linkTokenQuerySchema = z.object({ token: z.string().min(1).max(128) });
