import { describe, expect, it } from 'vitest';
import { euCountryCodes } from '@fleetlink/contract';
import { EU_STANDARD_VAT_BP, vatTreatment } from './vat.js';

const nl = EU_STANDARD_VAT_BP.NL;

describe('EU VAT of an invoice (seller in the Netherlands)', () => {
  it('charges a person the seller’s rate, wherever they live', () => {
    expect(vatTreatment(nl, 'NL', { type: 'PERSONAL', country: 'NL', vat: null })).toEqual({ rateBp: 2100, reverseCharge: false });
    expect(vatTreatment(nl, 'NL', { type: 'PERSONAL', country: 'DE', vat: 'DE123456789' })).toEqual({ rateBp: 2100, reverseCharge: false });
    expect(vatTreatment(nl, 'NL', { type: 'PERSONAL', country: null, vat: null })).toEqual({ rateBp: 2100, reverseCharge: false });
  });

  it('charges a company in the seller’s country the seller’s rate', () => {
    expect(vatTreatment(nl, 'NL', { type: 'COMPANY', country: 'NL', vat: 'NL123456789B01' })).toEqual({ rateBp: 2100, reverseCharge: false });
  });

  it('reverse-charges a company in another EU country with a VAT number', () => {
    expect(vatTreatment(nl, 'NL', { type: 'COMPANY', country: 'DE', vat: 'DE123456789' })).toEqual({ rateBp: 0, reverseCharge: true });
  });

  it('charges a company without a VAT number like a person', () => {
    expect(vatTreatment(nl, 'NL', { type: 'COMPANY', country: 'DE', vat: null })).toEqual({ rateBp: 2100, reverseCharge: false });
    expect(vatTreatment(nl, 'NL', { type: 'COMPANY', country: 'DE', vat: '  ' })).toEqual({ rateBp: 2100, reverseCharge: false });
  });

  it('has a standard rate for each of the 27 member states', () => {
    expect(Object.keys(EU_STANDARD_VAT_BP).sort()).toEqual([...euCountryCodes].sort());
    expect(EU_STANDARD_VAT_BP.FI).toBe(2550);
    expect(EU_STANDARD_VAT_BP.HU).toBe(2700);
  });
});
