import type { EuCountryCode } from '@fleetlink/contract';

/**
 * Standard VAT rates of the EU member states, in hundredths of a percent, as in force on 1 January
 * 2026 (European Commission, 'VAT rates applied in the Member States'). Rates change by law: a
 * seller whose rate changed sets INVOICE_VAT_RATE until this table follows.
 */
export const EU_STANDARD_VAT_BP: Record<EuCountryCode, number> = {
  AT: 2000, BE: 2100, BG: 2000, HR: 2500, CY: 1900, CZ: 2100, DK: 2500, EE: 2400, FI: 2550,
  FR: 2000, DE: 1900, GR: 2400, HU: 2700, IE: 2300, IT: 2200, LV: 2100, LT: 2100, LU: 1700,
  MT: 1800, NL: 2100, PL: 2300, PT: 2300, RO: 2100, SK: 2300, SI: 2200, ES: 2100, SE: 2500,
};

const isEu = (country: string | null | undefined): country is EuCountryCode => !!country && country in EU_STANDARD_VAT_BP;

/** What an invoice charges: the seller's rate, or the reverse charge (0 %, with its mention). */
export interface VatTreatment {
  rateBp: number;
  reverseCharge: boolean;
}

export interface VatBuyer {
  type: 'PERSONAL' | 'COMPANY';
  country: string | null;
  vat: string | null;
}

/**
 * EU VAT on a service to a buyer (Council Directive 2006/112/EC): a business customer in another
 * member state, identified by its VAT number, accounts for the VAT itself (reverse charge, Article
 * 196); everyone else — persons, companies in the seller's country, companies without a VAT number,
 * organizations without a country — pays the seller's rate.
 */
export function vatTreatment(sellerRateBp: number, sellerCountry: string, buyer: VatBuyer): VatTreatment {
  const reverseCharge = buyer.type === 'COMPANY' && !!buyer.vat?.trim() && isEu(buyer.country) && buyer.country !== sellerCountry;
  return reverseCharge ? { rateBp: 0, reverseCharge: true } : { rateBp: sellerRateBp, reverseCharge: false };
}
