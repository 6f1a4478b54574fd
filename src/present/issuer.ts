// A purchase's `issuer_details`: the legal details and bank accounts of the brand that issued it, as
// the platform prints them on its invoices and sends them with every purchase. A sandbox's brand has
// them when POST /sim/v1/sandboxes was given `brand`; otherwise these defaults, with the brand's name,
// are shown (a test account on the platform has its company's details; a sandbox has none of its own).

import type { Brand, IssuerDetails } from '../domain/types.ts';

/** The legal details of a brand created without any: a fictitious company, so that no real one is named. */
export const DEFAULT_ISSUER: Omit<IssuerDetails, 'brand_name'> = Object.freeze({
  legal_name: 'Sandbox Merchant Sdn. Bhd.',
  registration_number: '202601000001',
  tax_number: '',
  website: '',
  legal_street_address: '1 Jalan Contoh',
  legal_country: 'MY',
  legal_city: 'Kuala Lumpur',
  legal_zip_code: '50000',
  bank_accounts: Object.freeze([Object.freeze({ bank_account: '000000000000', bank_code: 'MBB' })]) as IssuerDetails['bank_accounts'],
});

const defaults = new WeakMap<Brand, IssuerDetails>();

/** The `issuer_details` of a purchase of `brand`; one object per brand, shared by its purchases. */
export function issuerDetails(brand: Brand | undefined): IssuerDetails | null {
  if (!brand) return null;
  if (brand.issuer_details) return brand.issuer_details;
  let made = defaults.get(brand);
  if (!made) defaults.set(brand, (made = Object.freeze({ brand_name: brand.name, ...DEFAULT_ISSUER })));
  return made;
}
