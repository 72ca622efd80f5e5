import { describe, expect, it } from 'vitest';
import { countries, countryName, euCountries, euCountryCodes } from './countries.js';

describe('countries (SPEC §3: a fixed list of ISO codes with names)', () => {
  it('holds the 249 countries of ISO 3166-1, each code once, each with an English name', () => {
    const all = countries();
    expect(all).toHaveLength(249);
    expect(countries()).toBe(all);
    expect(new Set(all.map((c) => c.code)).size).toBe(249);
    for (const c of all) {
      expect(c.code).toMatch(/^[A-Z]{2}$/);
      expect(c.name.length).toBeGreaterThan(1);
    }
    expect(all.some((c) => c.code === 'XK')).toBe(false);
    expect(countryName('CH')).toBe('Switzerland');
    expect(countryName('US')).toBe('United States of America');
    expect(countryName('ZZ')).toBe('ZZ');
    expect(countryName(null)).toBe('');
    expect(countryName('XK')).toBe('XK');
    expect(countryName('constructor')).toBe('constructor');
  });

  it('offers the 27 EU member states in the organization form, named from that list', () => {
    const eu = euCountries();
    expect(eu).toHaveLength(27);
    expect(eu.map((c) => c.code).sort()).toEqual([...euCountryCodes].sort());
    expect(eu.find((c) => c.code === 'NL')?.name).toBe('Netherlands');
    expect(eu.find((c) => c.code === 'DE')?.name).toBe('Germany');
    // Sorted by name for the select.
    expect(eu.map((c) => c.name)).toEqual([...eu.map((c) => c.name)].sort((a, b) => a.localeCompare(b, 'en')));
  });
});
