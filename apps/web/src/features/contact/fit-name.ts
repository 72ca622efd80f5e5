import { contactLimits } from '@fleetlink/contract';

/**
 * The signed-in name as the form's Name, as much of it as fits (issue 59: a longer one was prefilled
 * and then refused): its first words up to 32 characters, else its first 32 characters.
 */
export function fitName(name: string, max = contactLimits.name): string {
  const trimmed = name.trim();
  if (trimmed.length <= max) return trimmed;
  let fitted = '';
  for (const word of trimmed.split(/\s+/)) {
    const next = fitted ? `${fitted} ${word}` : word;
    if (next.length > max) break;
    fitted = next;
  }
  return fitted || trimmed.slice(0, max);
}
