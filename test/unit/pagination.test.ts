// Lists (DESIGN.md §3: newest first, `next` and `previous` as absolute URLs, a page past the end
// empty): a page is read backwards from the end of the collection, kept in insertion order by
// TrackedMap.inOrder (or one client's, inOrderBy), and stops one match past its end, so the newest
// page of 1.2 million purchases does not walk all of them.

import { describe, expect, it } from 'vitest';
import { paginate } from '../../src/http/pagination.ts';
import { ChangeSet, TrackedMap } from '../../src/store/changes.ts';

const URL = 'http://127.0.0.1:4010/api/v1/purchases/';
const numbers = (count: number) => Array.from({ length: count }, (_, i) => i);

describe('paginate: newest first, read from the end', () => {
  it('pages of the matches, newest first, with next and previous; a page past the end links back to the last page', () => {
    const even = (n: number) => n % 2 === 0;
    const query = (page: number) => ({ status: 'paid', page, page_size: 2 });
    const link = (page: number) => `${URL}?status=paid&page=${page}&page_size=2`;
    expect(paginate(numbers(10), query(1), URL, even)).toEqual({ results: [8, 6], next: link(2), previous: null });
    expect(paginate(numbers(10), query(2), URL, even)).toEqual({ results: [4, 2], next: link(3), previous: link(1) });
    expect(paginate(numbers(10), query(3), URL, even)).toEqual({ results: [0], next: null, previous: link(2) });
    // Five matches make three pages: from page 9, `previous` is page 3.
    expect(paginate(numbers(10), query(9), URL, even)).toEqual({ results: [], next: null, previous: link(3) });
    // Exactly two full pages: page 2 has no next.
    expect(paginate(numbers(8), query(2), URL, even)).toEqual({ results: [2, 0], next: null, previous: link(1) });
  });

  it('without a filter, the page is cut by index; defaults are page 1 of 100', () => {
    expect(paginate(numbers(250), { page: 3 }, URL).results).toEqual(numbers(50).reverse());
    const first = paginate(numbers(250), {}, URL);
    expect(first.results).toEqual(numbers(250).slice(150).reverse());
    expect(first.next).toBe(`${URL}?page=2&page_size=100`);
    expect(paginate(numbers(250), { page: 4 }, URL)).toEqual({ results: [], next: null, previous: `${URL}?page=3&page_size=100` });
    expect(paginate([], {}, URL)).toEqual({ results: [], next: null, previous: null });
  });

  it('the newest page of 10,000 reads 101 of them: its own 100 and one to know there is a next', () => {
    let read = 0;
    const page = paginate(numbers(10_000), {}, URL, () => (read += 1) > 0);
    expect(page.results).toHaveLength(100);
    expect(page.results[0]).toBe(9_999);
    expect(page.next).not.toBeNull();
    expect(read).toBe(101);
  });
});

describe('TrackedMap.inOrder: the values in insertion order, kept as the Map changes', () => {
  it('through inserts, replacements near and far from the newest end, deletes, re-inserts and clear, tracked or not', () => {
    const changes = new ChangeSet();
    const map = TrackedMap.of<number>('purchases', changes, [['a', -1]]);
    expect(map.inOrder()).toEqual([-1]);
    // A fixed pseudo-random walk: 400 keys, so a replaced key is often more than 64 places from the end.
    let state = 7;
    const draw = (below: number) => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) % below;
    for (let step = 0; step < 6_000; step += 1) {
      if (step === 3_000) changes.enabled = true;
      const key = `k${draw(400)}`;
      const op = draw(100);
      if (op < 85) map.set(key, step);
      else if (op < 99) map.delete(key);
      else map.clear();
      expect(map.inOrder()).toEqual([...map.values()]);
    }
  });

  it('inOrderBy: the values with one value of a field, in insertion order, through the same changes and replacements that change the field', () => {
    const changes = new ChangeSet();
    const map = TrackedMap.of<{ client: number; step: number }>('purchases', changes);
    let state = 11;
    const draw = (below: number) => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) % below;
    const keys = () => [...map.keys()];
    for (let step = 0; step < 4_000; step += 1) {
      if (step === 2_000) changes.enabled = true;
      const op = draw(100);
      const existing = keys();
      if (op < 60 || existing.length === 0) map.set(`k${step}`, { client: draw(5), step });
      else if (op < 90) {
        // Mostly the newest records, as payments are; now and then an old one, or a change of client.
        const key = existing[op < 80 ? existing.length - 1 - draw(Math.min(existing.length, 20)) : draw(existing.length)]!;
        map.set(key, { client: op < 88 ? map.get(key)!.client : draw(5), step });
      } else if (op < 99) map.delete(existing[draw(existing.length)]!);
      else map.clear();
      const client = draw(6);
      expect(map.inOrderBy('client', client)).toEqual([...map.values()].filter((value) => value.client === client));
    }
  });

  it('a client with no purchases has an empty order, and a first purchase of a new client starts one', () => {
    const map = TrackedMap.of('purchases', new ChangeSet(), [['p1', { client_id: 'c1' }]]);
    expect(map.inOrderBy('client_id', 'c2')).toEqual([]);
    map.set('p2', { client_id: 'c2' });
    map.set('p3', { client_id: 'c2' });
    expect(map.inOrderBy('client_id', 'c2')).toEqual([{ client_id: 'c2' }, { client_id: 'c2' }]);
    expect(map.inOrderBy('client_id', 'c1')).toEqual([{ client_id: 'c1' }]);
  });

  it('a new key and a replacement near the end change the same array; a replacement far from the end makes it anew', () => {
    const map = TrackedMap.of<string>('purchases', new ChangeSet(), numbers(200).map((i) => [`k${i}`, `v${i}`] as const));
    const order = map.inOrder();
    map.set('k200', 'new');
    map.set('k190', 'paid');
    expect(map.inOrder()).toBe(order);
    expect(order.slice(-11)).toEqual(['paid', ...numbers(9).map((i) => `v${191 + i}`), 'new']);
    map.set('k3', 'refunded');
    expect(map.inOrder()).not.toBe(order);
    expect(map.inOrder()).toEqual([...map.values()]);
    expect(map.inOrder()[3]).toBe('refunded');
  });
});
