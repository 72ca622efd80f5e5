/** Ids are UUID-like and too long for headings; the console shows their first 8 characters. */
export const SHORT_ID_LENGTH = 8;

export function shortId(id: string): string {
  return id.slice(0, SHORT_ID_LENGTH);
}

/** What a breadcrumb shows for an entity: its name when known (and not blank), else its short id. */
export function entityLabel(entity: { id: string; name?: string | null }): string {
  const name = entity.name?.trim();
  return name ? name : shortId(entity.id);
}
