import type { ApiError } from '@fleetlink/contract';
import { expect } from 'vitest';

/** The `{ code, message, fields }` body of an error answer, after checking its status (shown with the body when it differs). */
export async function expectError(res: Response, status: number): Promise<ApiError> {
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body as ApiError;
}
