// A merchant backend's endpoint for a purchase's success_callback: it fetches the account's public key
// once, then verifies the X-Signature of every POST (RSA PKCS#1 v1.5, SHA-256, over the raw body) before
// it trusts the purchase in the body. Plain Node, no dependencies.
//
// Environment:
//   BILLING_SIM_TOKEN     the sandbox's bearer token (`npm start` prints the default sandbox's)
//   BILLING_SIM_BASE_URL  the API base, default http://127.0.0.1:4010/api/v1
//   PORT                  where to listen on 127.0.0.1, default 9000 (0: any free port)

import { createServer } from 'node:http';
import { verifySuccessCallback } from './verify.mjs';

const base = process.env.BILLING_SIM_BASE_URL ?? 'http://127.0.0.1:4010/api/v1';
const token = process.env.BILLING_SIM_TOKEN;
if (!token) {
  console.error('Set BILLING_SIM_TOKEN to a sandbox token: `npm start` prints one.');
  process.exit(2);
}

// The account's key: a bare JSON string holding the PEM.
const answer = await fetch(`${base.replace(/\/$/, '')}/public_key/`, { headers: { Authorization: `Bearer ${token}` } }).catch((error) => error);
if (!(answer instanceof Response) || !answer.ok) {
  console.error(`GET ${base}/public_key/ failed (${answer instanceof Response ? answer.status : answer.message}): is the simulator running, and the token its?`);
  process.exit(2);
}
const publicKey = await answer.json();

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const rawBody = Buffer.concat(chunks);
    const signature = req.headers['x-signature'] ?? '';
    if (req.method !== 'POST' || !verifySuccessCallback(rawBody, signature, publicKey)) {
      console.log(`refused: ${req.method} ${req.url} without a valid X-Signature`);
      res.writeHead(400).end();
      return;
    }
    const purchase = JSON.parse(rawBody.toString('utf8'));
    console.log(`verified: purchase ${purchase.id} is ${purchase.status} (${purchase.event_type})`);
    res.writeHead(200).end();
  });
});
server.listen(Number(process.env.PORT ?? 9000), '127.0.0.1', () => {
  console.log(`success_callback receiver on http://127.0.0.1:${server.address().port}/callback`);
});
