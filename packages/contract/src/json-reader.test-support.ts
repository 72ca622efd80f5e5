import { expect } from 'vitest';

/**
 * A hand reader (json-reader.ts) and the zod schema the API documents the same answer with must
 * give the same verdict: what the schema takes, the reader takes and answers alike; what the schema
 * refuses, the reader refuses with its own message.
 */
export function expectSameVerdict(schema: { safeParse(value: unknown): { success: boolean; data?: unknown } }, reader: (value: unknown) => unknown, answer: unknown, refusal: RegExp): void {
  const bySchema = schema.safeParse(answer);
  let byHand: unknown;
  let error: Error | undefined;
  try {
    byHand = reader(answer);
  } catch (err) {
    error = err as Error;
  }
  if (bySchema.success) expect(byHand).toEqual(bySchema.data);
  else expect(error?.message).toMatch(refusal);
}
