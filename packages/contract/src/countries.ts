import isoNames from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

/**
 * SPEC §3 'Countries: fixed list of ISO codes with names'. The codes and English names come from
 * i18n-iso-countries (a maintained copy of ISO 3166-1), not typed here. Where the package lists
 * several names the first, its official one, is shown. XK (Kosovo) is left out: it is a
 * user-assigned code, not part of ISO 3166-1.
 */
const NOT_IN_ISO_3166_1 = new Set(['XK']);

export interface Country {
  code: string;
  name: string;
}

const isoCountries = isoNames.countries as Record<string, string | string[]>;

/** The official name of an ISO 3166-1 code, or undefined. */
const isoName = (code: string): string | undefined => {
  const names = NOT_IN_ISO_3166_1.has(code) || !Object.hasOwn(isoCountries, code) ? undefined : isoCountries[code];
  return Array.isArray(names) ? names[0] : names;
};

let sorted: readonly Country[] | undefined;

/**
 * Every country, sorted by name. Made when first asked for: sorting some 250 names by locale is work
 * that a page showing no country should not do as it loads (issue 68).
 */
export function countries(): readonly Country[] {
  sorted ??= Object.keys(isoCountries)
    .flatMap((code) => {
      const name = isoName(code);
      return name ? [{ code, name }] : [];
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return sorted;
}

/**
 * The 27 member states of the European Union (SPEC §3, §10 'EU list: 27 countries'), the countries
 * the organization form offers. Membership is a political fact no ISO list carries, so the codes
 * are listed here; their names come from the ISO list above.
 */
const EU_CODES = ['AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE'] as const;

export type EuCountryCode = (typeof EU_CODES)[number];
export const euCountryCodes = [...EU_CODES] as [EuCountryCode, ...EuCountryCode[]];
export const euCountries = (): readonly Country[] => countries().filter((c) => (EU_CODES as readonly string[]).includes(c.code));

/** The English name of an ISO 3166-1 code; an unknown code is shown as it is. */
export const countryName = (code: string | null | undefined) => (code ? (isoName(code) ?? code) : '');
