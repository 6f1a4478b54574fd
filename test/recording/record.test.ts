// DESIGN.md §15 "Recordings": `billing-sim proxy --record FILE` writes "every exchange, in order, with the
// proxy's violations and notes as custom fields (`_billingSim`); scrubbed before writing: the bearer
// token, card number, CVC, expiry, cardholder name, `X-Signature`; e-mails and phones replaced by stable
// fakes unless `--keep-personal`. The file is readable after a kill -9, up to the last complete exchange."
// The proxy runs in front of a simulator; for what the simulator never answers (an undocumented field,
// an X-Signature header), with the contract self-test's fault proxy between them.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { readHarFile, type RecordedEntry } from '../../src/recording/har-file.ts';
import { startProxy } from '../../src/proxy/proxy.ts';
import { everyObject, type Fault } from '../contract/fault-proxy.ts';
import { clientBody, oneTimeBody } from '../builders/templates.ts';
import { chain, send, type Answer } from '../proxy/support.ts';
import { CLI } from '../support/cli.ts';
import { freePort } from '../support/ports.ts';

const require = createRequire(import.meta.url);
const EMAIL = 'jane.recorded@shop.example';
const PHONE = '+60 12-345 6789';
const CARD = { number: '4242 4242 4242 4242', cardholder_name: 'Grace Q Hopper', expiry: '11/30' };
const FORM = { cardholder_name: 'Ines Q Example', card_number: '5105 1051 0510 5100', expires: '10/31', cvc: '7319' };
const SIGNATURES = ['c2lnbmVkLWJ5LXRoZS1jbGllbnQ=', 'c2lnbmVkLWJ5LXRoZS1zZXJ2ZXI='];
const REDIRECTS = { success_redirect: 'https://shop.example/thanks', failure_redirect: 'https://shop.example/sorry' };

/** Every answer signed; every client with a field openapi.yaml does not name (a note). */
const SIGNED_WITH_EXTRA: Fault = {
  name: 'signed answers, clients with an undocumented field',
  response: (_req, res) => {
    res.headers['x-signature'] = SIGNATURES[1]!;
    everyObject(res.body, (o) => {
      if (o.type === 'client') o.undocumented_kind = 'vip';
    });
  },
};

let sim: RunningSimulator;
const dir = mkdtempSync(join(tmpdir(), 'billing-sim-record-'));

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
});
afterAll(async () => {
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The HAR 1.2 schema (har-schema, draft-06) as ajv 8 reads it; its `min` and `optional` are no keywords of JSON Schema. */
function harValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
  for (const schema of Object.values(require('har-schema') as Record<string, object>)) ajv.addSchema(schema);
  return ajv.getSchema('har.json#')!;
}

/**
 * A flow through a recording proxy in front of the simulator: a sandbox, a client, a template, a
 * purchase paid with a typed card and one by a Direct Post form, a refund, an error.
 */
async function recordFlow(file: string, keepPersonal = false) {
  const lines: string[] = [];
  const proxy = await startProxy({ upstream: sim.url, port: 0, recordFile: file, keepPersonal, log: (line) => lines.push(line) });
  const c = { proxy, lines, close: () => proxy.stop() };
  const calls: { method: string; path: string; answer: Answer }[] = [];
  let token = '';
  const call = async (method: string, path: string, options: Parameters<typeof send>[4] = {}) => {
    const answer = await send(c.proxy.url, method, path, token || undefined, options);
    calls.push({ method, path, answer });
    return answer;
  };
  const sandbox = await call('POST', '/sim/v1/sandboxes', { body: {} });
  expect(sandbox.status).toBe(201);
  token = sandbox.body.token;
  const client = await call('POST', '/api/v1/clients/', { body: clientBody({ email: EMAIL, phone: PHONE }) });
  expect(client.status, client.text).toBe(201);
  // A misspelt field: the simulator ignores it, the proxy reports it.
  expect((await call('POST', '/api/v1/clients/', { body: clientBody({ email: EMAIL, emial: 'x' }) })).status).toBe(201);
  expect((await call('GET', `/api/v1/clients/?email=${encodeURIComponent(EMAIL)}`)).body.results).toHaveLength(2);
  expect((await call('POST', '/api/v1/billing_templates/', { body: oneTimeBody(sandbox.body.brand_id) })).status).toBe(201);
  const purchase = (body = {}) => call('POST', '/api/v1/purchases/', { body: { brand_id: sandbox.body.brand_id, client_id: client.body.id, purchase: { currency: 'EUR', products: [{ name: 'Hour', price: 1200 }] }, ...REDIRECTS, ...body } });
  const first = (await purchase()).body;
  const paid = await call('POST', `/sim/v1/purchases/${first.id}/pay`, { body: { method: 'visa', card: CARD }, headers: { 'x-signature': SIGNATURES[0]! } });
  expect(paid.body.transaction_data.extra).toMatchObject({ masked_pan: '424242******4242', cardholder_name: CARD.cardholder_name });
  const second = (await purchase()).body;
  // As a browser posts a shop's card form; the 303 to the shop is not followed.
  const formPath = new URL(second.direct_post_url).pathname;
  const posted = await fetch(c.proxy.url + formPath, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(FORM).toString(), redirect: 'manual' });
  await posted.arrayBuffer();
  calls.push({ method: 'POST', path: formPath, answer: { status: posted.status, headers: {}, text: '', body: undefined } });
  expect([posted.status, posted.headers.get('location')]).toEqual([303, REDIRECTS.success_redirect]);
  expect((await call('POST', `/api/v1/purchases/${first.id}/refund/`, { body: { amount: 200 } })).status).toBe(200);
  expect((await call('GET', '/api/v1/purchases/00000000-0000-4000-8000-000000000000/')).status).toBe(404);
  await c.close();
  return { calls, token, lines: c.lines };
}

const sum = (entry: RecordedEntry) => ['send', 'wait', 'receive'].reduce((total, step) => total + (entry.timings as unknown as Record<string, number>)[step]!, 0);

describe('proxy --record writes every exchange as HAR 1.2, scrubbed', () => {
  it('one entry per exchange in order, valid HAR 1.2, with the answers, timings and the proxy\'s violations and notes', async () => {
    const file = join(dir, 'flow.har');
    const { calls, lines } = await recordFlow(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The misspelt field, and the Direct Post target, which openapi.yaml leaves out (it is a browser's form, not the API).
    expect(lines.filter((line) => line.includes(' violation ')), lines.join('\n')).toHaveLength(2);
    expect(lines.at(-1)).toMatch(new RegExp(`; recorded ${calls.length} exchange\\(s\\) to .*flow\\.har$`));
    const { har, complete } = readHarFile(file);
    expect(complete).toBe(true);
    const validate = harValidator();
    expect(validate(har), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const entries = har.log.entries as RecordedEntry[];
    expect(entries.map((e) => [e.request.method, new URL(e.request.url).pathname, e.response.status])).toEqual(
      calls.map((call) => [call.method, call.path.split('?')[0], call.answer.status]),
    );
    for (const entry of entries) {
      expect(entry.request.url.startsWith('http://127.0.0.1:')).toBe(true);
      expect(entry.timings.send).toBeGreaterThanOrEqual(0);
      expect(entry.timings.wait).toBeGreaterThanOrEqual(0);
      expect(sum(entry)).toBeCloseTo(entry.time, 2);
      expect(entry.response.headers.map((h) => h.name.toLowerCase())).toContain('date');
    }
    // The sandbox's clock on every answer to a request with the sandbox's token, as the replay reads it.
    const withToken = entries.filter((e) => e.request.headers.some((h) => h.name === 'authorization'));
    expect(withToken).toHaveLength(calls.length - 2);
    expect(withToken.filter((e) => !e.response.headers.some((h) => h.name.toLowerCase() === 'billing-sim-clock'))).toEqual([]);
    const [, client, misspelt] = entries;
    expect(client!._billingSim).toMatchObject({ operation: 'createClient', violations: [], notes: [] });
    expect(misspelt!._billingSim!.violations).toEqual([{ side: 'request', path: 'body emial', message: expect.stringContaining('not defined') }]);
    const form = entries.find((e) => e.request.url.includes('/direct_post/'))!;
    expect(form._billingSim).toEqual({ violations: [{ side: 'request', path: 'path', message: expect.stringContaining('not a path of openapi.yaml') }], notes: [], scrubbed: expect.any(Object) });
    const notFound = entries.at(-1)!;
    expect(notFound.response.content).toMatchObject({ mimeType: expect.stringContaining('json'), text: expect.stringContaining('not_found') });
  });

  it('leaves out the token, card numbers, CVC, expiry, cardholder names, signatures, e-mails and phones, and counts what it replaced', async () => {
    const file = join(dir, 'scrubbed.har');
    const { token } = await recordFlow(file);
    const raw = readFileSync(file, 'utf8');
    const secrets = [token, sim.token, CARD.number, CARD.number.replaceAll(' ', ''), CARD.expiry, CARD.cardholder_name, FORM.card_number, FORM.card_number.replaceAll(' ', ''), `cvc=${FORM.cvc}`, FORM.expires, FORM.cardholder_name, ...SIGNATURES, EMAIL, PHONE, '345 6789'];
    const encoded = secrets.flatMap((secret) => [secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)]);
    expect(encoded.filter((secret) => raw.includes(secret))).toEqual([]);
    const entries = readHarFile(file).har.log.entries as RecordedEntry[];
    expect(entries[0]!._billingSim!.scrubbed).toEqual({ token: 1 });
    expect(entries[1]!.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer scrubbed-token-1' });
    // The same address, the same fake: in the request, the answer, and a later query.
    const sent = JSON.parse(entries[1]!.request.postData!.text!);
    const answered = JSON.parse(entries[1]!.response.content.text!);
    expect(sent.email).toMatch(/^person-[0-9a-f]{6}@example\.com$/);
    expect(answered.email).toBe(sent.email);
    expect(answered.phone).toMatch(/^\+\d\d \d\d-\d{3} \d{4}$/);
    expect(entries[3]!.request.queryString).toEqual([{ name: 'email', value: sent.email }]);
    expect(entries[1]!._billingSim!.scrubbed).toEqual({ authorization: 1, email: 2, phone: 2 });
    const pay = entries.find((e) => e.request.url.endsWith('/pay'))!;
    expect(JSON.parse(pay.request.postData!.text!).card).toEqual({ number: '4444 3333 2222 1111', cardholder_name: 'CARD HOLDER', expiry: '12/99' });
    expect(pay._billingSim!.scrubbed).toMatchObject({ card_number: 1, cardholder_name: 3, expiry: 1, signature: 1 });
    const form = entries.find((e) => e.request.url.includes('/direct_post/'))!;
    expect(form.request.postData!.params).toEqual([
      { name: 'cardholder_name', value: 'CARD HOLDER' },
      { name: 'card_number', value: '5555 5555 5555 4444' },
      { name: 'expires', value: '12/99' },
      { name: 'cvc', value: '1234' },
    ]);
    expect(form.response.redirectURL).toBe(REDIRECTS.success_redirect);
  });

  it("keeps the proxy's notes (a field openapi.yaml does not name) and scrubs an answer's X-Signature", async () => {
    const file = join(dir, 'notes.har');
    const c = await chain(sim.url, sim.token, SIGNED_WITH_EXTRA, { recordFile: file });
    expect((await c.call('POST', '/api/v1/clients/', { body: clientBody({ email: EMAIL }) })).headers['x-signature']).toBe(SIGNATURES[1]);
    await c.close();
    const [entry] = readHarFile(file).har.log.entries as RecordedEntry[];
    expect(entry!._billingSim).toMatchObject({ operation: 'createClient', violations: [], notes: [{ path: 'body undocumented_kind', message: expect.any(String) }] });
    expect(entry!.response.headers).toContainEqual({ name: 'x-signature', value: 'scrubbed' });
    expect(readFileSync(file, 'utf8')).not.toContain(SIGNATURES[1]);
  });

  it('with keepPersonal keeps e-mails and phones, and scrubs the secrets all the same', async () => {
    const file = join(dir, 'personal.har');
    const { token } = await recordFlow(file, true);
    const raw = readFileSync(file, 'utf8');
    expect(raw).toContain(EMAIL);
    expect(raw).toContain(PHONE);
    expect([token, CARD.number, CARD.cardholder_name, FORM.cardholder_name, SIGNATURES[0]].filter((secret) => raw.includes(secret!))).toEqual([]);
  });

  it('an upstream that cannot be reached: the 502 the client got, with the reason in _billingSim.failure', async () => {
    const file = join(dir, 'unreachable.har');
    const proxy = await startProxy({ upstream: `http://127.0.0.1:${await freePort()}`, port: 0, recordFile: file, log: () => {} });
    expect((await send(proxy.url, 'GET', '/api/v1/clients/', 'a-token')).status).toBe(502);
    await proxy.stop();
    const [entry] = readHarFile(file).har.log.entries as RecordedEntry[];
    expect(entry!.response).toMatchObject({ status: 502, content: { text: expect.stringContaining('upstream_unreachable') } });
    expect(entry!._billingSim!.failure).toMatch(/could not be reached/);
    expect(entry!.timings).toMatchObject({ wait: -1, receive: -1 });
  });
});

describe('a kill -9 during recording', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('leaves a file that reads, with every exchange whose entry was written and no partial entry', async () => {
    const file = join(dir, 'killed.har');
    // The test's own BILLING_SIM_* would configure the child.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BILLING_SIM_')));
    child = spawn(process.execPath, [CLI, 'proxy', '--upstream', sim.url, '--port', '0', '--record', file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child!.once('exit', (_code, signal) => resolve(signal)));
    const url = await vi.waitFor(() => /^billing-sim proxy listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(stdout)![1]!, { timeout: 30_000, interval: 50 });
    expect(stdout).toContain(`recording to   ${file}`);

    const N = 20;
    for (let i = 0; i < N; i += 1) expect((await send(url, 'POST', '/api/v1/clients/', sim.token, { body: clientBody({ email: `kill-${i}@example.com` }) })).status).toBe(201);
    // An entry is written once its exchange is checked, a moment after the answer.
    await vi.waitFor(() => expect(readHarFile(file).har.log.entries.length).toBe(N), { timeout: 15_000, interval: 20 });

    // More traffic, and the kill as soon as one more exchange is answered: some of it is still being forwarded, checked or written.
    const more = Array.from({ length: 40 }, () => send(url, 'GET', '/api/v1/clients/?page_size=100', sim.token).catch(() => undefined));
    await Promise.race(more);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    await Promise.all(more);

    const { har } = readHarFile(file);
    const entries = har.log.entries as RecordedEntry[];
    expect(entries.length).toBeGreaterThanOrEqual(N);
    expect(entries.slice(0, N).map((e) => JSON.parse(e.request.postData!.text!).email)).toEqual(Array.from({ length: N }, (_, i) => expect.stringMatching(/^person-[0-9a-f]{6}@example\.com$/)));
    for (const entry of entries) {
      expect(entry).toMatchObject({ request: { method: expect.any(String), url: expect.stringContaining(url) }, response: { status: expect.any(Number) }, timings: expect.any(Object) });
      expect(entry._billingSim).toMatchObject({ violations: expect.any(Array), notes: expect.any(Array) });
    }
    expect(entries.slice(N).every((e) => e.request.method === 'GET')).toBe(true);
  }, 60_000);
});
