/** Up to two initials for an avatar: 'Ada Lovelace' → 'AL', 'admin@fleetlink.local' → 'A'. */
export function initials(nameOrUsername: string | null | undefined): string {
  const words = (nameOrUsername ?? '').split('@')[0]!.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = words[0]!.charAt(0);
  const last = words.length > 1 ? words[words.length - 1]!.charAt(0) : '';
  return (first + last).toUpperCase();
}
