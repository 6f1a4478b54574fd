import { createVerify } from 'node:crypto';

// rawBody: the callback's bytes as they came, before any JSON parsing; signature: its X-Signature header;
// publicKey: the PEM that GET /api/v1/public_key/ answers (the account's key; a webhook has a key of its own).
export function verifySuccessCallback(rawBody, signature, publicKey) {
  return createVerify('sha256').update(rawBody).verify(publicKey, signature, 'base64');
}
