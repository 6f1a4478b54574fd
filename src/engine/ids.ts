// Sources of ids. The server uses crypto's UUIDs unless a seed is given; tests and fixtures use a
// seeded faker, so a run with the same seed creates the same ids in the same order.

import { randomUUID } from 'node:crypto';
import { base, en, Faker } from '@faker-js/faker';
import type { Ids } from '../domain/context.ts';

export function seededFaker(seed: number): Faker {
  return new Faker({ locale: [en, base], seed });
}

/**
 * crypto.randomUUID() returns its string as a tree of concatenations (a V8 ConsString of a dozen
 * nodes). Ten years of billings keep half a million ids alive, and the trees cost 60 % more memory
 * and most of the garbage collector's time; one copy through a Buffer makes each id a flat string.
 */
const flatUuid = (): string => Buffer.from(randomUUID(), 'latin1').toString('latin1');

export function createIds(seed?: number): Ids {
  if (seed === undefined) return { uuid: flatUuid };
  const faker = seededFaker(seed);
  return { uuid: () => faker.string.uuid() };
}
