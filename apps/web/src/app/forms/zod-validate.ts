/** Anything with zod's safeParse; keeps forms validating with the contract's own schemas. */
interface SafeParser {
  safeParse(data: unknown): { success: true } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/**
 * A Mantine form `validate` function from a contract schema: the first message per field, so the
 * SPA shows exactly what the API would answer.
 */
export function zodValidate<T>(schema: SafeParser) {
  return (values: T): Record<string, string> => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const key = issue.path.map(String).join('.');
      if (key && !(key in errors)) errors[key] = issue.message;
    }
    return errors;
  };
}

/** One field's rule from a contract schema (a Mantine per-field `validate`): its first message, or null. */
export function fieldRule<V>(schema: SafeParser) {
  return (value: V): string | null => {
    const result = schema.safeParse(value);
    return result.success ? null : (result.error.issues[0]?.message ?? null);
  };
}
