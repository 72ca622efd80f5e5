/**
 * The fields an edit changed, each as [before, after], for an audit entry's details. Missing and
 * empty values count as null; lists and objects compare by content.
 */
export function fieldChanges<K extends string>(
  before: Partial<Record<K, unknown>>,
  after: Partial<Record<K, unknown>>,
  keys: readonly K[],
): Partial<Record<K, [unknown, unknown]>> {
  const changes: Partial<Record<K, [unknown, unknown]>> = {};
  for (const key of keys) {
    const was = before[key] ?? null;
    const now = after[key] ?? null;
    if (JSON.stringify(was) !== JSON.stringify(now)) changes[key] = [was, now];
  }
  return changes;
}
