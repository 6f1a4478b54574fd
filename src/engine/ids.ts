// Sources of ids. The server uses crypto's UUIDs unless a seed is given; tests and fixtures use a
// seeded faker, so a run with the same seed creates the same ids in the same order.

import { randomFillSync } from 'node:crypto';
import type { Faker } from '@faker-js/faker';
import { faker as english } from '@faker-js/faker/locale/en';
import type { Ids } from '../domain/context.ts';
import { mix32, TWO_32 } from '../domain/integer-hash.ts';

/**
 * The package's main entry loads all its 60-odd locales (about 150 ms of every start); the `en`
 * entry loads one and exports only its ready-made instance, whose class and merged en + base
 * definitions make the seeded instances.
 */
const FakerClass = english.constructor as typeof Faker;

export function seededFaker(seed: number): Faker {
  return new FakerClass({ locale: english.rawDefinitions, seed });
}

/**
 * Random v4 UUIDs, written as flat one-byte strings. crypto.randomUUID() returns its string as a
 * tree of concatenations (a V8 ConsString of a dozen nodes): ten years of billings keep half a
 * million ids alive, and the trees cost 60 % more memory and most of the garbage collector's time,
 * while flattening each through a Buffer copied it twice. Here the random bytes are drawn from the
 * CSPRNG 4,096 ids (64 KB) at a time, each id's 36 characters are written into one scratch buffer, and
 * one latin1 read makes the string. A draw has a fixed cost: 4 KB at a time cost 15 ns an id, 64 KB 4 ns,
 * and a ten-year advance of 10,000 subscribers draws 4.8 million.
 */
const UUIDS_PER_DRAW = 4096;
const random = Buffer.alloc(16 * UUIDS_PER_DRAW);
let used = random.length;
const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** Where byte i of the 16 goes in "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx". */
const AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
const text = Buffer.from('00000000-0000-4000-8000-000000000000', 'latin1');

function randomUuid(): string {
  if (used === random.length) {
    randomFillSync(random);
    used = 0;
  }
  for (let i = 0; i < 16; i += 1) {
    let byte = random[used + i]!;
    // RFC 9562: version 4 in the high nibble of byte 6, variant 10 in the top bits of byte 8.
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    else if (i === 8) byte = (byte & 0x3f) | 0x80;
    text[AT[i]!] = HEX[byte >> 4]!;
    text[AT[i]! + 1] = HEX[byte & 15]!;
  }
  used += 16;
  return text.toString('latin1');
}

/** An id source that counts what it drew, so a data file can record the position (`--seed` with `--data`). */
export interface CountedIds extends Ids {
  drawn(): number;
}

/**
 * Random UUIDs, or with a seed the same sequence on every run. `skip` resumes a seeded sequence
 * where an earlier process left it, so a restart never hands out an id again.
 */
export function createIds(seed?: number, skip = 0): CountedIds {
  let drawn = 0;
  if (seed === undefined) {
    return { uuid: () => ((drawn += 1), randomUuid()), drawn: () => drawn };
  }
  const faker = seededFaker(seed);
  for (; drawn < skip; drawn += 1) faker.string.uuid();
  return { uuid: () => ((drawn += 1), faker.string.uuid()), drawn: () => drawn };
}

const hex8 = (x: number): string => x.toString(16).padStart(8, '0');

/**
 * Id number `n` (0, 1, 2, …) of a sandbox created with `seed` (POST /sim/v1/sandboxes {"seed"}): a
 * UUID v4 computed from the pair, so that a sandbox resumes its sequence from the count alone (a
 * data file or a snapshot keeps `idsDrawn`), with no generator to replay. Its first 32 bits are a
 * bijection of n's low half for a given seed, so the ids of one sandbox never repeat before 2^32 of
 * them; the other 90 random-looking bits are mixed from those and the seed.
 */
export function seededUuid(seed: number, n: number): string {
  const key = mix32(mix32(seed % TWO_32) ^ mix32((Math.floor(seed / TWO_32) % TWO_32) ^ 0x9e3779b9) ^ mix32(Math.floor(n / TWO_32) ^ 0x85ebca6b));
  const a = mix32((n % TWO_32) ^ key);
  const b = hex8(mix32(a ^ 0x27d4eb2f ^ key));
  const c = mix32(a ^ 0x165667b1);
  const d = hex8(mix32(c ^ key));
  const cx = hex8(c);
  const variant = (8 | ((c >>> 28) & 3)).toString(16);
  const text = `${hex8(a)}-${b.slice(0, 4)}-4${b.slice(5)}-${variant}${cx.slice(1, 4)}-${cx.slice(4)}${d}`;
  return Buffer.from(text, 'latin1').toString('latin1');
}

/** Ids of a seeded sandbox from position `from` on, counting what was drawn (see seededUuid). */
export function sandboxSeededIds(seed: number, from = 0): CountedIds {
  let drawn = from;
  return { uuid: () => seededUuid(seed, drawn++), drawn: () => drawn };
}
