import { EU_STANDARD_VAT_BP } from './vat.js';
import type { Env } from '../../env.js';
import type { Seller } from './invoices.service.js';

/** The seller of the invoices, from the environment (README 'Invoices'). */
export function sellerOf(env: Env): Seller {
  return {
    party: {
      name: env.INVOICE_SELLER_NAME,
      address: env.INVOICE_SELLER_ADDRESS || null,
      country: env.INVOICE_SELLER_COUNTRY,
      vat: env.INVOICE_SELLER_VAT || null,
      email: null,
    },
    vatRateBp: env.INVOICE_VAT_RATE ?? EU_STANDARD_VAT_BP[env.INVOICE_SELLER_COUNTRY],
    unitPriceCents: env.INVOICE_PRICE_PER_DEVICE_MONTH,
  };
}
