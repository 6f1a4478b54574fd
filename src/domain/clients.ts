// Clients: the spec shows no fields of its own for them, so they are the platform's ClientDetails
// (its SDK models and API reference): an e-mail, or a bank account with its bank code, as on the
// platform ("Either an email or (bank_account and bank_code)"); every other detail optional, `cc`
// and `bcc` sent as lists or null. Deleting one is refused while a subscriber refers to it.

import type { Context } from './context.ts';
import { ErrorCollector, errors } from './errors.ts';
import { resourceWriter, type WriteMode } from './fields.ts';
import type { Client, Input } from './types.ts';

const WRITABLE = [
  'email',
  'full_name',
  'phone',
  'street_address',
  'city',
  'zip_code',
  'state',
  'country',
  'personal_code',
  'shipping_street_address',
  'shipping_city',
  'shipping_zip_code',
  'shipping_state',
  'shipping_country',
  'legal_name',
  'brand_name',
  'registration_number',
  'tax_number',
  'bank_account',
  'bank_code',
  'description',
  'cc',
  'bcc',
] as const;

type ClientDetails = Pick<Client, (typeof WRITABLE)[number]>;

export const CLIENT_DEFAULTS: ClientDetails = {
  email: '',
  full_name: '',
  phone: '',
  street_address: '',
  city: '',
  zip_code: '',
  state: '',
  country: '',
  personal_code: '',
  shipping_street_address: '',
  shipping_city: '',
  shipping_zip_code: '',
  shipping_state: '',
  shipping_country: '',
  legal_name: '',
  brand_name: '',
  registration_number: '',
  tax_number: '',
  bank_account: '',
  bank_code: '',
  description: '',
  cc: [],
  bcc: [],
};

const writeFields = resourceWriter<Client, (typeof WRITABLE)[number]>('client', WRITABLE, CLIENT_DEFAULTS);

/**
 * Creates, replaces (PUT) or patches a client. `cc` and `bcc` sent as null (the platform's Go SDK
 * sends every field of its struct) are kept as empty lists. The result needs an e-mail or both bank
 * fields; `prefix` names the fields of a purchase's `client` object (`client.email`).
 */
export function writeClient(mode: WriteMode, stored: Client | undefined, input: Input, ctx: Context, prefix = ''): Client {
  const client = writeFields(mode, stored, input, ctx);
  if (client.cc === null) client.cc = [];
  if (client.bcc === null) client.bcc = [];
  assertReachable(client, prefix);
  return client;
}

/** Platform, clients/create: "Either an email or (bank_account and bank_code)". */
function assertReachable(client: Client, prefix: string): void {
  if (client.email !== '' || (client.bank_account !== '' && client.bank_code !== '')) return;
  const errs = new ErrorCollector();
  errs.add(`${prefix}email`, errors.required('An e-mail, or a bank_account with its bank_code, is required.'));
  errs.throwIfAny();
}

const snapshots = new WeakMap<Client, ClientDetails>();

/**
 * The client's details as a Purchase snapshots them (`purchase.client`). Records are replaced on
 * every change, never mutated, so one snapshot per client record serves all its purchases.
 */
export function clientDetails(client: Client): ClientDetails {
  let details = snapshots.get(client);
  if (!details) {
    const fields = {} as Record<string, unknown>;
    for (const field of WRITABLE) fields[field] = client[field];
    details = fields as ClientDetails;
    snapshots.set(client, details);
  }
  return details;
}

export function assertDeletable(client: Client, subscriberCount: number): void {
  if (subscriberCount > 0) {
    const errs = new ErrorCollector();
    errs.add('__all__', errors.protected(`Client "${client.id}" has ${subscriberCount} subscriber record(s); it cannot be deleted.`));
    errs.throwIfAny();
  }
}
