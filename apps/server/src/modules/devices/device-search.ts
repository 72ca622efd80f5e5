// The document itself is SQL (migration 0003, `device_search_document`), kept by triggers; what
// one term matches is SQL too (migration 0031, `device_search_term`).

/**
 * The terms of what a person typed, each matched as a prefix (device_search_term), all of them by
 * a device. Characters that are no part of a name, address or id are dropped, at most 8 terms.
 */
export function searchTerms(input: string | undefined): string[] | undefined {
  const terms = (input ?? '')
    .split(/\s+/)
    .map((t) => t.toLowerCase().replace(/[^\p{L}\p{N}._@/+-]/gu, ''))
    .map((t) => t.replace(/^[-+./]+|[-+./]+$/g, ''))
    .filter((t) => t.length > 0)
    .slice(0, 8);
  return terms.length ? terms : undefined;
}

/**
 * When the input looks like the start of a device id (hex, optionally with dashes), the uuid range
 * it covers: searching by id prefix then uses the primary key instead of the text index.
 */
export function idPrefixRange(input: string | undefined): { from: string; to: string } | undefined {
  const term = (input ?? '').trim().toLowerCase();
  if (!/^[0-9a-f-]{4,36}$/.test(term)) return undefined;
  const hex = term.replace(/-/g, '');
  if (hex.length < 4 || hex.length > 32) return undefined;
  // The dashes must sit where a uuid has them, otherwise it is not an id prefix.
  const template = '00000000-0000-0000-0000-000000000000';
  const format = (digits: string) => {
    let i = 0;
    return template.replace(/0/g, () => digits[i++]!);
  };
  const expected = format(hex.padEnd(32, '0')).slice(0, term.length);
  if (expected !== term) return undefined;
  return { from: format(hex.padEnd(32, '0')), to: format(hex.padEnd(32, 'f')) };
}
