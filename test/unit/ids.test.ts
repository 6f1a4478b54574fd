// Ids of a server started without --seed: random v4 UUIDs (engine/ids.ts draws their bytes from
// the CSPRNG thousands at a time, so these tests cross several draws).

import { describe, expect, it } from 'vitest';
import { createIds } from '../../src/engine/ids.ts';

/** RFC 9562: version 4 in the 13th hex digit, variant 10 in the top bits of the 17th. */
const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('unseeded ids', () => {
  it('are v4 UUIDs, all different, across three draws of the random pool', () => {
    const ids = createIds();
    const drawn = Array.from({ length: 10_000 }, () => ids.uuid());
    expect(drawn.filter((id) => !V4.test(id))).toEqual([]);
    expect(new Set(drawn).size).toBe(drawn.length);
    expect(ids.drawn()).toBe(10_000);
  });

  it('use every hex digit in every free position: no byte of the pool is reused or left zero', () => {
    const ids = createIds();
    const seen = Array.from({ length: 36 }, () => new Set<string>());
    for (let i = 0; i < 10_000; i += 1) [...ids.uuid()].forEach((char, at) => seen[at]!.add(char));
    const sizes = seen.map((chars) => chars.size);
    // Dashes at 8, 13, 18, 23; the version digit at 14; the variant digit at 19 takes 8, 9, a, b.
    expect(sizes).toEqual(sizes.map((_, at) => ([8, 13, 18, 23, 14].includes(at) ? 1 : at === 19 ? 4 : 16)));
  });

  it('two sources draw different ids', () => {
    const first = createIds();
    const second = createIds();
    const a = new Set(Array.from({ length: 5_000 }, () => first.uuid()));
    expect(Array.from({ length: 5_000 }, () => second.uuid()).filter((id) => a.has(id))).toEqual([]);
  });
});
