import { organizationFormSchema, organizationUserFormSchema } from '@fleetlink/contract';
import { describe, expect, it } from 'vitest';
import { zodValidate } from './zod-validate';

describe('zodValidate', () => {
  it('gives the first SPEC message per field', () => {
    const validate = zodValidate(organizationFormSchema);
    expect(validate({ type: 'PERSONAL', name: '', country: '', address: '', telephone: '', email: 'x', vat: '' })).toEqual({
      name: 'Name is required.',
      country: 'Country is required.',
      address: 'Address is required.',
      email: 'Email is not a valid email address.',
    });
  });

  it('accepts a valid member and defaults nothing away', () => {
    expect(zodValidate(organizationUserFormSchema)({ email: 'a@b.example', role: 'USER' })).toEqual({});
    expect(zodValidate(organizationUserFormSchema)({ email: '', role: 'USER' })).toEqual({ email: 'Email is required.' });
  });
});
