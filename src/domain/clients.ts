// Clients: the spec shows no fields of its own for them, so openapi.yaml decides (e-mail required,
// contact details optional). Deleting one is refused while a subscriber refers to it.

import { ErrorCollector, errors } from './errors.ts';
import { resourceWriter } from './fields.ts';
import type { Client } from './types.ts';

const WRITABLE = [
  'email',
  'full_name',
  'phone',
  'street_address',
  'city',
  'zip_code',
  'state',
  'country',
  'legal_name',
  'registration_number',
  'tax_number',
  'cc',
  'bcc',
] as const;

type ClientDetails = Pick<Client, (typeof WRITABLE)[number]>;

const DEFAULTS: ClientDetails = {
  email: '',
  full_name: '',
  phone: '',
  street_address: '',
  city: '',
  zip_code: '',
  state: '',
  country: '',
  legal_name: '',
  registration_number: '',
  tax_number: '',
  cc: [],
  bcc: [],
};

/** Creates, replaces (PUT) or patches a client; `email` is required by the schema on create and PUT. */
export const writeClient = resourceWriter<Client, (typeof WRITABLE)[number]>('client', WRITABLE, DEFAULTS);

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
