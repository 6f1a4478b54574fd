// Sources of ids. The server uses crypto's UUIDs unless a seed is given; tests and fixtures use a
// seeded faker, so a run with the same seed creates the same ids in the same order.

import { randomUUID } from 'node:crypto';
import { base, en, Faker } from '@faker-js/faker';
import type { Ids } from '../domain/context.ts';

export function seededFaker(seed: number): Faker {
  return new Faker({ locale: [en, base], seed });
}

export function createIds(seed?: number): Ids {
  if (seed === undefined) return { uuid: () => randomUUID() };
  const faker = seededFaker(seed);
  return { uuid: () => faker.string.uuid() };
}
