// What a recording must not keep (DESIGN.md §15), replaced before anything is written. One Scrubber per
// recording: its salt and its token numbering are the recording's, so the same secret gets the same
// stand-in throughout one file and a stand-in cannot be traced back by guessing inputs. Pure: the salt
// comes from the caller, and nothing here reads a clock, a random source or a file.
//
// - `Authorization: Bearer <token>` → `Bearer scrubbed-token-N`, N by first appearance; the `token` of a
//   `POST /sim/v1/sandboxes` answer shares the numbering, so a replay can tell sandboxes apart.
// - A card's secrets, by name at any depth of a JSON body and as form or query fields (`card_number`,
//   `number` inside `card`, `cvc`, `cvv`, `expires`, `expiry`, `cardholder_name`), `X-Signature` and
//   cookies → `scrubbed`, or a stand-in of the same shape a replay can send (expiry `12/99`, CVC `123`,
//   name `CARD HOLDER`: STAND_IN_TEXT); a card number → the platform's test card of its scheme (cardStandIn), so that
//   a replayed payment still names a card its method takes (`{method: mastercard, card: {number: 5555…}}`).
//   Numbers that are no one's card are kept: the platform's published test cards and the simulator's
//   declining ones (domain/test-cards.ts); a declined test payment then replays declined.
// - Any 13–19-digit Luhn-valid run in any text → the same test card (a card typed into a note).
// - E-mail addresses anywhere, and phones by field name (`phone`, `shipping_phone`, `phone_number`: a
//   pattern would take amounts and dates for phones) → stable fakes, unless `keepPersonal`.
// What was replaced is counted by kind into the `Counts` each call is given: never the values.

import { createHmac } from 'node:crypto';
import { cardBrand, isDefaultCard } from '../domain/cards.ts';
import { DECLINING_CARDS, luhnValid } from '../domain/test-cards.ts';

export type Counts = Record<string, number>;

/** What a secret becomes: a value that was there and is not recorded. */
export const SCRUBBED = 'scrubbed';

/** Names of fields that hold a card's secrets, with the kind they are counted as. */
const SECRET_FIELDS: Readonly<Record<string, string>> = {
  card_number: 'card_number',
  cvc: 'cvc',
  cvv: 'cvc',
  expires: 'expiry',
  expiry: 'expiry',
  cardholder_name: 'cardholder_name',
};

/**
 * Stand-ins a replay can still send, in the shape the field had: a payment replayed with `expiry:
 * "scrubbed"` would be refused where the recorded one was taken. Undefined: the value had no shape the
 * field takes, and becomes SCRUBBED.
 */
const STAND_IN_TEXT: Readonly<Record<string, (value: string) => string | undefined>> = {
  // MM/YY or MM/YYYY, the last month of a year far enough ahead for any test card.
  expiry: (value) => (/^\d{2}\/\d{2}$/.test(value.trim()) ? '12/99' : /^\d{2}\/\d{4}$/.test(value.trim()) ? '12/2099' : undefined),
  cvc: (value) => (/^\d{3,4}$/.test(value.trim()) ? '1234'.slice(0, value.trim().length) : undefined),
  cardholder_name: () => 'CARD HOLDER',
};

const PHONE_FIELD = /^(?:\w+_)?phone(?:_number)?$/i;
/** RFC 5322's atom characters before the `@` (or its URL encoding `%40`), a dotted host name after. */
const EMAIL = /[\w.!#$%&'*+/=?^`{|}~-]+(@|%40)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+/gi;

/** What every value the scrubber replaces in a JSON body comes with: an e-mail's `@`, or a field name of SECRET_FIELDS or PHONE_FIELD. */
const SCRUB_HINT = /@|%40|phone|card|cvc|cvv|expir/i;

/** Headers whose whole value is a secret, with the kind they are counted as. */
const SECRET_HEADERS: Readonly<Record<string, string>> = { 'x-signature': 'signature', cookie: 'cookie', 'set-cookie': 'cookie' };
const AUTHORIZATION_HEADERS = new Set(['authorization', 'proxy-authorization']);

/** The platform's own test cards (its guide), and the simulator's Maestro default (cards.ts), by scheme. */
const STAND_INS: Readonly<Record<string, string>> = {
  visa: '4444333322221111',
  mastercard: '5555555555554444',
  maestro: '6759000000000005',
};

/**
 * 13 to 19 digits (ISO/IEC 7812's lengths; 12-digit runs are too often other numbers), spaces or dashes
 * allowed between them, and no letter, digit or dash on either side: a UUID's all-digit groups are not
 * a card, nor a part of a longer number.
 */
const DIGIT_RUN = /(?<![\w-])\d(?:[ -]?\d){12,18}(?![\w-])/;
const DIGIT_RUNS = new RegExp(DIGIT_RUN, 'g');

const isTestNumber = (digits: string) => isDefaultCard(digits) || Object.hasOwn(DECLINING_CARDS, digits);

/** What stands in for a card number: the test card of its scheme, laid out as it was (grouped by 4 when it had separators). */
function cardStandIn(value: string): string {
  const digits = value.replace(/[\s-]/g, '');
  if (isTestNumber(digits)) return value;
  const standIn = STAND_INS[cardBrand(digits) ?? 'visa']!;
  return /\d[\s-]+\d/.test(value) ? standIn.replace(/(\d{4})(?=\d)/g, '$1 ') : standIn;
}

/** `text` with every Luhn-valid digit run given to `replace`. */
function luhnRuns(text: string, replace: (run: string) => string): string {
  // Most texts of an answer (names, statuses, currencies) have no digit: no regular expression over them.
  if (!/\d/.test(text)) return text;
  return text.replace(DIGIT_RUNS, (run) => (luhnValid(run.replace(/[ -]/g, '')) ? replace(run) : run));
}

const count = (counts: Counts, kind: string) => (counts[kind] = (counts[kind] ?? 0) + 1);

export class Scrubber {
  /** Token → `scrubbed-token-N`. */
  private readonly tokens = new Map<string, string>();
  /** E-mail (lower case) → its fake; `taken` keeps two addresses from sharing one. */
  private readonly emails = new Map<string, string>();
  private readonly taken = new Set<string>();

  constructor(
    private readonly salt: Buffer,
    private readonly keepPersonal = false,
  ) {}

  /** The pseudonym of a bearer token: the same token, the same N. */
  token(value: string, counts: Counts): string {
    let pseudonym = this.tokens.get(value);
    if (!pseudonym) this.tokens.set(value, (pseudonym = `scrubbed-token-${this.tokens.size + 1}`));
    count(counts, 'token');
    return pseudonym;
  }

  header(name: string, value: string, counts: Counts): string {
    const lower = name.toLowerCase();
    if (AUTHORIZATION_HEADERS.has(lower)) {
      const [scheme = '', credentials = ''] = value.trim().split(/\s+/, 2);
      if (credentials === '') return value;
      count(counts, 'authorization');
      // The token's own count is not wanted here: an authorization is one replacement.
      return `${scheme} ${/^bearer$/i.test(scheme) ? this.token(credentials, {}) : SCRUBBED}`;
    }
    const kind = SECRET_HEADERS[lower];
    if (kind) {
      count(counts, kind);
      return SCRUBBED;
    }
    return this.text(value, counts);
  }

  /** A request target: its path as text, its query as fields. */
  target(target: string, counts: Counts): string {
    const queryAt = target.indexOf('?');
    if (queryAt === -1) return this.text(target, counts);
    return `${this.text(target.slice(0, queryAt), counts)}?${this.query(target.slice(queryAt + 1), counts)}`;
  }

  /** A query or a form body: each field decoded, scrubbed, and re-encoded only if it changed. */
  query(text: string, counts: Counts): string {
    return text.replace(/([^&=]*)=([^&]*)/g, (whole, key: string, raw: string) => {
      let name: string;
      let value: string;
      try {
        [name, value] = [key, raw].map((part) => decodeURIComponent(part.replaceAll('+', ' '))) as [string, string];
      } catch {
        // Not percent-encoding a browser would send: scrubbed as it stands.
        return this.text(whole, counts);
      }
      const scrubbed = this.field(name, value, counts);
      return scrubbed === value ? whole : `${key}=${encodeURIComponent(String(scrubbed))}`;
    });
  }

  /** A JSON text: scrubbed, and written again only if something changed (so an untouched body stays byte for byte). */
  json(text: string, counts: Counts, options: { sandboxAnswer?: boolean } = {}): string {
    if (!options.sandboxAnswer && !this.mayHold(text)) return text;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return this.text(text, counts);
    }
    const before = Object.values(counts).reduce((sum, n) => sum + n, 0);
    if (options.sandboxAnswer && isObject(body) && typeof body.token === 'string') body.token = this.token(body.token, counts);
    const scrubbed = this.walk(body, undefined, counts);
    return Object.values(counts).reduce((sum, n) => sum + n, 0) === before ? text : JSON.stringify(scrubbed);
  }

  /** Any text: card numbers, then e-mail addresses. */
  text(text: string, counts: Counts): string {
    let out = luhnRuns(text, (run) => {
      const standIn = cardStandIn(run);
      if (standIn !== run) count(counts, 'card_number');
      return standIn;
    });
    if (!this.keepPersonal && (out.includes('@') || out.includes('%40'))) {
      out = out.replace(EMAIL, (address, at: string) => {
        count(counts, 'email');
        return this.email(at === '@' ? address : address.replace(/%40/i, '@')).replace('@', at);
      });
    }
    return out;
  }

  /**
   * Whether a JSON text may hold anything to scrub: a field name or character that every such value
   * comes with, a digit run a card number could be, or a known token. Most answers (a list of templates)
   * hold none, and are then neither parsed nor walked: a third of what recording them cost the proxy.
   */
  private mayHold(text: string): boolean {
    if (SCRUB_HINT.test(text) || DIGIT_RUN.test(text)) return true;
    for (const token of this.tokens.keys()) if (text.includes(token)) return true;
    return false;
  }

  private walk(value: unknown, parentKey: string | undefined, counts: Counts): unknown {
    if (typeof value === 'string') return this.tokens.get(value) ?? this.text(value, counts);
    if (Array.isArray(value)) return value.map((item) => this.walk(item, parentKey, counts));
    if (!isObject(value)) return value;
    for (const [key, field] of Object.entries(value)) {
      // Whatever its type: `cvv: 123` and `expiry: {month, year}` are as secret as their strings.
      const secret = key === 'number' && parentKey === 'card' ? 'card_number' : SECRET_FIELDS[key.toLowerCase()];
      value[key] = secret ? this.secret(secret, field, counts) : typeof field === 'string' ? this.field(key, field, counts) : this.walk(field, key, counts);
    }
    return value;
  }

  /** A named field's value: a secret, a phone, or any text. */
  private field(key: string, value: string, counts: Counts): unknown {
    const kind = SECRET_FIELDS[key.toLowerCase()];
    if (kind) return this.secret(kind, value, counts);
    if (PHONE_FIELD.test(key) && !this.keepPersonal && /\d/.test(value)) {
      count(counts, 'phone');
      return this.phone(value);
    }
    return this.tokens.get(value) ?? this.text(value, counts);
  }

  private secret(kind: string, value: unknown, counts: Counts): unknown {
    // Nothing typed is nothing to hide: an empty field stays what it was, as a replay needs it.
    if (value === '' || value === null || value === undefined) return value;
    if (kind !== 'card_number' || (typeof value !== 'string' && typeof value !== 'number')) {
      count(counts, kind);
      return typeof value === 'string' ? (STAND_IN_TEXT[kind]?.(value) ?? SCRUBBED) : SCRUBBED;
    }
    const standIn = cardStandIn(String(value));
    if (standIn === String(value)) return value;
    count(counts, kind);
    return standIn;
  }

  /** `person-<6 hex>@example.com`, the same for the same address (case aside) within the recording. */
  private email(address: string): string {
    const key = address.toLowerCase();
    let fake = this.emails.get(key);
    for (let attempt = 0; !fake; attempt += 1) {
      const candidate = `person-${this.hash(`email:${attempt}:${key}`).slice(0, 6)}@example.com`;
      if (!this.taken.has(candidate)) fake = candidate;
    }
    this.emails.set(key, fake);
    this.taken.add(fake);
    return fake;
  }

  /** The same shape (a leading `+`, separators, length) with other digits, the same for the same number. */
  private phone(value: string): string {
    const digits = Buffer.from(this.hash(`phone:${value.replace(/\D/g, '')}`), 'hex');
    let i = 0;
    return value.replace(/\d/g, () => String(digits[i++ % digits.length]! % 10));
  }

  private hash(input: string): string {
    return createHmac('sha256', this.salt).update(input).digest('hex');
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
