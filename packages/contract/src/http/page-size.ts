import { z } from 'zod';
import { messages } from '../forms/messages.js';

/** A list's `size` query parameter: a whole number from 1 to `max`, `fallback` when absent. */
export const pageSizeSchema = (max: number, fallback: number) =>
  z.coerce
    .number({ error: 'Size must be a number.' })
    .int('Size must be a whole number.')
    .min(1, 'Size must be at least 1.')
    .max(max, messages.max('Size', max))
    .default(fallback);
