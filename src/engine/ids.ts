// Sources of ids. The server uses crypto's UUIDs unless a seed is given; tests and fixtures use a
// seeded faker, so a run with the same seed creates the same ids in the same order.

import { randomUUID } from 'node:crypto';
import type { Faker } from '@faker-js/faker';
import { faker as english } from '@faker-js/faker/locale/en';
import type { Ids } from '../domain/context.ts';

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
 * crypto.randomUUID() returns its string as a tree of concatenations (a V8 ConsString of a dozen
 * nodes). Ten years of billings keep half a million ids alive, and the trees cost 60 % more memory
 * and most of the garbage collector's time; one copy through a Buffer makes each id a flat string.
 */
const flatUuid = (): string => Buffer.from(randomUUID(), 'latin1').toString('latin1');

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
    return { uuid: () => ((drawn += 1), flatUuid()), drawn: () => drawn };
  }
  const faker = seededFaker(seed);
  for (; drawn < skip; drawn += 1) faker.string.uuid();
  return { uuid: () => ((drawn += 1), faker.string.uuid()), drawn: () => drawn };
}
