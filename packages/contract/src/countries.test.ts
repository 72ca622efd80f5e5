import { describe, expect, it } from 'vitest';
import { countries, countryName, euCountries, euCountryCodes } from './countries.js';

describe('countries (SPEC §3: a fixed list of ISO codes with names)', () => {
  it('holds the 249 countries of ISO 3166-1, each code once, each with an English name', () => {
    expect(countries).toHaveLength(249);
    expect(new Set(countries.map((c) => c.code)).size).toBe(249);
    for (const c of countries) {
      expect(c.code).toMatch(/^[A-Z]{2}$/);
      expect(c.name.length).toBeGreaterThan(1);
    }
    expect(countries.some((c) => c.code === 'XK')).toBe(false);
    expect(countryName('CH')).toBe('Switzerland');
    expect(countryName('US')).toBe('United States of America');
    expect(countryName('ZZ')).toBe('ZZ');
    expect(countryName(null)).toBe('');
  });

  it('offers the 27 EU member states in the organization form, named from that list', () => {
    expect(euCountries).toHaveLength(27);
    expect(euCountries.map((c) => c.code).sort()).toEqual([...euCountryCodes].sort());
    expect(euCountries.find((c) => c.code === 'NL')?.name).toBe('Netherlands');
    expect(euCountries.find((c) => c.code === 'DE')?.name).toBe('Germany');
    // Sorted by name for the select.
    expect(euCountries.map((c) => c.name)).toEqual([...euCountries.map((c) => c.name)].sort((a, b) => a.localeCompare(b, 'en')));
  });
});
