import { describe, expect, it } from 'vitest';
import { euCountries, euCountryCodes } from '../countries.js';
import { missingOrganizationDetails, organizationDomainFormSchema, organizationFormSchema, organizationUserFormSchema } from './organization-form.js';

const valid = { name: 'Acme', country: 'DE', address: 'Street 1, 10115 Berlin', email: 'A@Acme.example' };

describe('organization form schema (SPEC §5)', () => {
  it('lists the 27 EU countries once each', () => {
    expect(euCountries()).toHaveLength(27);
    expect(new Set(euCountryCodes).size).toBe(27);
  });

  it('defaults to PERSONAL, lowercases the email, and drops VAT unless COMPANY', () => {
    expect(organizationFormSchema.parse({ ...valid, vat: 'DE1' })).toEqual({ ...valid, email: 'a@acme.example', type: 'PERSONAL', telephone: null, vat: null });
    expect(organizationFormSchema.parse({ ...valid, type: 'COMPANY', vat: 'DE1' }).vat).toBe('DE1');
  });

  it('rejects a country outside the EU and a telephone with letters', () => {
    const r = organizationFormSchema.safeParse({ ...valid, country: 'CH', telephone: '+41 abc' });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.message)).toEqual(['Country is required.', 'Telephone is not a valid, it contain invalid characters.']);
  });

  it('names what a saved organization still lacks, in form order', () => {
    const personal = { type: 'PERSONAL', name: 'Ulla User', country: null, address: null, telephone: null, email: 'user@fleetlink.local', vat: null };
    expect(missingOrganizationDetails(personal)).toEqual(['Country', 'Address']);
    expect(missingOrganizationDetails({ ...personal, email: null })).toEqual(['Country', 'Address', 'Email']);
    expect(missingOrganizationDetails({ ...personal, country: 'BE', address: 'Rue de la Loi 16, 1000 Brussels' })).toEqual([]);
  });

  it('member role defaults to USER and cannot be CREATOR', () => {
    expect(organizationUserFormSchema.parse({ email: 'x@y.example' })).toEqual({ email: 'x@y.example', role: 'USER' });
    expect(organizationUserFormSchema.safeParse({ email: 'x@y.example', role: 'CREATOR' }).error?.issues[0].message).toBe('Role is required.');
  });

  it('domains are host names, stored lowercase without a trailing dot', () => {
    expect(organizationDomainFormSchema.parse({ domain: ' Tunnels.Example.COM. ' })).toEqual({ domain: 'tunnels.example.com' });
    for (const domain of ['localhost', 'a_b.example.com', 'x.example.com/path', `${'a'.repeat(64)}.example.com`]) {
      expect(organizationDomainFormSchema.safeParse({ domain }).success, domain).toBe(false);
    }
  });
});
