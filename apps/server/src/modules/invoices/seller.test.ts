import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../env.js';
import { sellerOf } from './seller.js';

describe('the seller, from the environment', () => {
  it('prices in cents and takes the country’s standard VAT rate by default', () => {
    expect(sellerOf(parseEnv({}))).toEqual({
      party: { name: 'Fleetlink', address: null, country: 'NL', vat: null, email: null },
      vatRateBp: 2100,
      unitPriceCents: 500,
    });
    const seller = sellerOf(
      parseEnv({ INVOICE_PRICE_PER_DEVICE_MONTH: '4.9', INVOICE_SELLER_COUNTRY: 'FI', INVOICE_SELLER_VAT: 'FI12345678', INVOICE_SELLER_ADDRESS: 'Mannerheimintie 1, Helsinki' }),
    );
    expect(seller).toMatchObject({ unitPriceCents: 490, vatRateBp: 2550, party: { country: 'FI', vat: 'FI12345678', address: 'Mannerheimintie 1, Helsinki' } });
  });

  it('takes a VAT rate the law changed before the table did', () => {
    expect(sellerOf(parseEnv({ INVOICE_SELLER_COUNTRY: 'DE', INVOICE_VAT_RATE: '17.5' })).vatRateBp).toBe(1750);
    expect(sellerOf(parseEnv({ INVOICE_VAT_RATE: '0' })).vatRateBp).toBe(0);
  });

  it('says in one line what is wrong with a price, a rate or a country', () => {
    expect(() => parseEnv({ INVOICE_PRICE_PER_DEVICE_MONTH: '5,00' })).toThrow(
      'Invalid configuration: INVOICE_PRICE_PER_DEVICE_MONTH: INVOICE_PRICE_PER_DEVICE_MONTH must be an amount in EUR such as 5 or 4.99',
    );
    expect(() => parseEnv({ INVOICE_VAT_RATE: '21%' })).toThrow('INVOICE_VAT_RATE must be a percentage such as 21 or 25.5');
    expect(() => parseEnv({ INVOICE_SELLER_COUNTRY: 'US' })).toThrow('INVOICE_SELLER_COUNTRY must be the ISO code of an EU country, such as NL');
  });
});
