// A recording without a proxy: the scrubber (src/recording/scrub.ts) and its card numbers, the recorder's
// order when checks end out of order (recorder.ts), and the HAR file read after a cut at every byte of
// its last entry (har-file.ts).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HarFileWriter, readHar, type RecordedEntry } from '../../src/recording/har-file.ts';
import { Recorder, type SeenExchange } from '../../src/recording/recorder.ts';
import { Scrubber, type Counts } from '../../src/recording/scrub.ts';

const SALT = Buffer.from('a fixed salt for the tests');

describe('Scrubber', () => {
  it('gives a bearer token the same pseudonym every time, numbered by first appearance, shared with a sandbox answer', () => {
    const scrubber = new Scrubber(SALT);
    const counts: Counts = {};
    expect(scrubber.header('Authorization', 'Bearer aaa', counts)).toBe('Bearer scrubbed-token-1');
    expect(scrubber.json('{"id":"x","token":"bbb"}', counts, { sandboxAnswer: true })).toBe('{"id":"x","token":"scrubbed-token-2"}');
    expect(scrubber.header('authorization', 'Bearer bbb', counts)).toBe('Bearer scrubbed-token-2');
    expect(scrubber.header('authorization', 'Bearer aaa', counts)).toBe('Bearer scrubbed-token-1');
    expect(scrubber.header('authorization', 'Basic dXNlcjpwYXNz', counts)).toBe('Basic scrubbed');
    expect(counts).toEqual({ authorization: 4, token: 1 });
    // A token field elsewhere is no sandbox's token (a purchase's recurring_token is an id).
    expect(scrubber.json('{"token":"ccc"}', {})).toBe('{"token":"ccc"}');
  });

  it("replaces a card's secrets at any depth and keeps their layout and the test card of their scheme", () => {
    const counts: Counts = {};
    const body = {
      method: 'mastercard',
      card: { number: '5105 1051 0510 5100', cardholder_name: 'Jane Doe', expiry: '12/29', cvc: '123' },
      nested: [{ card_number: '4111111111111111', cvv: 999, expires: '01/30' }],
      empty: { cvc: '' },
    };
    const out = JSON.parse(new Scrubber(SALT).json(JSON.stringify(body), counts));
    expect(out).toEqual({
      method: 'mastercard',
      card: { number: '5555 5555 5555 4444', cardholder_name: 'CARD HOLDER', expiry: '12/99', cvc: '123' },
      nested: [{ card_number: '4444333322221111', cvv: 'scrubbed', expires: '12/99' }],
      empty: { cvc: '' },
    });
    expect(counts).toEqual({ card_number: 2, cardholder_name: 1, expiry: 2, cvc: 2 });
  });

  it('replaces a Luhn-valid run of 13 to 19 digits in any text, and no UUID, timestamp or Luhn-invalid run', () => {
    const scrubber = new Scrubber(SALT);
    const counts: Counts = {};
    expect(scrubber.text('card 4111-1111-1111-1111 typed', counts)).toBe('card 4444 3333 2222 1111 typed');
    expect(scrubber.text('n=4111111111111111.', counts)).toBe('n=4444333322221111.');
    const untouched = ['12345678-1234-1234-1234-123456789012', 'at 1768467600', '4111111111111112', 'id a4111111111111111'];
    for (const text of untouched) expect(scrubber.text(text, counts)).toBe(text);
    // The platform's and the simulator's test cards are no one's: a declined test payment replays declined.
    expect(scrubber.text('4000 0000 0000 9995 and 4444333322221111', counts)).toBe('4000 0000 0000 9995 and 4444333322221111');
    expect(counts).toEqual({ card_number: 2 });
  });

  it('replaces e-mails with stable fakes (case aside, encoded or not) that pass format: email, and phones by shape', () => {
    const scrubber = new Scrubber(SALT);
    const counts: Counts = {};
    const fake = scrubber.text('jane.doe+shop@example.org', counts);
    expect(fake).toMatch(/^person-[0-9a-f]{6}@example\.com$/);
    expect(scrubber.text('Write to Jane.Doe+shop@Example.org.', counts)).toBe(`Write to ${fake}.`);
    expect(scrubber.query('email=jane.doe%2Bshop%40example.org&limit=5', counts)).toBe(`email=${encodeURIComponent(fake)}&limit=5`);
    expect(scrubber.text('q=jane.doe%2Bshop%40example.org', counts)).not.toContain('example.org');
    expect(scrubber.text('other@example.org', counts)).not.toBe(fake);
    const phone = JSON.parse(scrubber.json('{"client":{"phone":"+60 12-345 6789","shipping_phone":""}}', counts)).client;
    expect(phone.phone).toMatch(/^\+\d\d \d\d-\d{3} \d{4}$/);
    expect(phone.phone).not.toBe('+60 12-345 6789');
    expect(phone.shipping_phone).toBe('');
    expect(JSON.parse(scrubber.json('{"phone":"+60 12-345 6789"}', counts)).phone).toBe(phone.phone);
    // Another recording, another salt: the fakes cannot be matched across recordings.
    expect(new Scrubber(Buffer.from('another')).text('jane.doe+shop@example.org', {})).not.toBe(fake);
    expect(counts).toMatchObject({ email: 5, phone: 2 });
  });

  it('keeps e-mails and phones with keepPersonal, and scrubs the secrets all the same', () => {
    const scrubber = new Scrubber(SALT, true);
    const counts: Counts = {};
    const text = '{"email":"jane@example.org","phone":"+49301234567","card":{"number":"4111111111111111","cvc":"123"}}';
    expect(JSON.parse(scrubber.json(text, counts))).toEqual({ email: 'jane@example.org', phone: '+49301234567', card: { number: '4444333322221111', cvc: '123' } });
    expect(counts).toEqual({ card_number: 1, cvc: 1 });
  });

  it('scrubs a Direct Post form field by field and leaves an untouched body byte for byte', () => {
    const scrubber = new Scrubber(SALT);
    const counts: Counts = {};
    const form = 'cardholder_name=Jane+Doe&card_number=4111+1111+1111+1111&expires=12%2F29&cvc=123&remember_card=on';
    expect(scrubber.query(form, counts)).toBe('cardholder_name=CARD%20HOLDER&card_number=4444%203333%202222%201111&expires=12%2F99&cvc=123&remember_card=on');
    expect(scrubber.header('X-Signature', 'c2lnbmF0dXJl', counts)).toBe('scrubbed');
    const untouched = '{ "status": "paid",  "amount": 1.50 }';
    expect(scrubber.json(untouched, counts)).toBe(untouched);
  });
});

describe('a recording cut short', () => {
  const dir = mkdtempSync(join(tmpdir(), 'billing-sim-har-cut-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const entry = (n: number) => ({ startedDateTime: '2026-01-30T09:00:00.000Z', time: n, request: { method: 'GET', url: `http://x/${n}`, headers: [] }, response: { status: 200, headers: [], content: {} } }) as unknown as RecordedEntry;

  it('reads every entry before the last one, whether the file is cut at any byte of it or its write overwrote only part of the tail', () => {
    const path = join(dir, 'cut.har');
    const writer = new HarFileWriter(path, { name: 'test', version: '0' }, 'cut');
    writer.append(entry(1));
    writer.append(entry(2));
    const before = readFileSync(path);
    writer.append(entry(3));
    writer.close();
    const after = readFileSync(path);
    expect(readHar(after.toString()).har.log.entries).toHaveLength(3);
    // Where the last append began: the first byte at which the two files differ.
    let start = 0;
    while (before[start] === after[start]) start += 1;
    for (let cut = start; cut < after.length - '\n]}}\n'.length; cut += 1) {
      // A file cut there (the write handed over that much, the tail lost with it).
      const truncated = readHar(after.subarray(0, cut).toString());
      expect(truncated.har.log.entries.map((e) => e.time), `cut at ${cut}`).toEqual([1, 2]);
      // The same bytes written over the old tail, whose end is still in the file.
      const overwritten = Buffer.from(before);
      after.copy(overwritten, start, start, Math.min(cut, after.length));
      const read = readHar(Buffer.concat([overwritten, after.subarray(overwritten.length, cut)]).toString());
      expect(read.har.log.entries.map((e) => e.time), `write of ${cut - start} byte(s) over the tail`).toEqual([1, 2]);
    }
  });
});

describe('Recorder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'billing-sim-recorder-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const seen = (target: string): SeenExchange => ({
    method: 'GET',
    target,
    httpVersion: '1.1',
    headers: { authorization: 'Bearer secret-token' },
    requestComplete: true,
    requestBody: { kind: 'kept', bytes: Buffer.alloc(0) },
    answer: { status: 200, headers: { 'content-type': 'application/json' }, body: { kind: 'kept', bytes: Buffer.from('{"email":"a@b.example"}') } },
    timing: { started: new Date('2026-01-30T09:00:00Z'), sentMs: 1, headMs: 3, endMs: 4 },
  });

  it('writes exchanges in the order they completed, each once its findings are in, whatever order the checks end in', () => {
    const path = join(dir, 'order.har');
    const recorder = new Recorder({ file: path, proxyOrigin: 'http://127.0.0.1:4011', upstream: 'http://upstream.test', salt: SALT });
    const first = recorder.reserve(seen('/first'));
    const second = recorder.reserve(seen('/second'));
    const third = recorder.reserve(seen('/third'));
    second({ violations: [], notes: [{ path: 'body x', message: 'second' }] });
    expect(readHar(readFileSync(path, 'utf8')).har.log.entries).toEqual([]);
    first({ operation: 'listClients', violations: [], notes: [] });
    expect(recorder.count).toBe(2);
    third({ violations: [], notes: [] });
    recorder.close();
    const entries = readHar(readFileSync(path, 'utf8')).har.log.entries as RecordedEntry[];
    expect(entries.map((e) => [e.request.url, e._billingSim!.notes.length])).toEqual([
      ['http://127.0.0.1:4011/first', 0],
      ['http://127.0.0.1:4011/second', 1],
      ['http://127.0.0.1:4011/third', 0],
    ]);
    expect(entries[0]!.timings).toMatchObject({ send: 1, wait: 2, receive: 1 });
    expect(entries[0]!._billingSim).toEqual({ operation: 'listClients', violations: [], notes: [], scrubbed: { authorization: 1, email: 1 } });
  });
});
