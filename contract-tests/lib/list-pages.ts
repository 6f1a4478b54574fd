// Lists read as a client reads them: one page at a time, following `next` until it is null. The
// checks that use this read a set of objects they made themselves, narrowed by a filter or a path
// (a client's purchases, the clients of one e-mail, one template's subscribers), so that objects other
// checks create at the same time never shift their pages.
//
// The list envelope `{results, next, previous}`, with `next` and `previous` URL strings or null, is the
// platform's (docs/fidelity.md#objects). `page_size` is billing-sim's parameter (openapi.yaml
// #/components/parameters/Page): a target that does not know it answers its own page size, which is
// right when that first page holds the whole set (`next` null).

import { expect } from 'vitest';
import type { ApiClient } from './client.ts';
import type { TargetConfig } from './config.ts';
import { expectStatus, unique } from './primitives.ts';
import type { Client, List } from './records.ts';
import { makeClient } from './scenario.ts';

type Node = Record<string, any>;

// The rules the list checks cite.

/** The envelope, as the platform answers it. */
export const LIST_ENVELOPE = 'docs/fidelity.md#objects: "The platform answers every list as {results, next, previous}"';
/** Pages read by following next: each object once, the last page's next null, the query kept. */
export const LIST_PAGES =
  'docs/fidelity.md#objects: "a client reads a list by following next until it is null, so no object is on two pages and the last page\'s next is null", ' +
  `"whose next and previous keep the request's other query parameters"; docs/behaviour.md#lists: "the pages hold every object of the list once"`;
/** `GET /clients/?q=`, as the platform's WHMCS module calls it. */
export const CLIENTS_Q = 'docs/fidelity.md#request-fields: "WHMCS looks a client up by e-mail and takes results[0]"; openapi.yaml#listClients: "q finds clients by e-mail"';
/** Newest first: billing-sim's order; the platform publishes none. */
export const NEWEST_FIRST = 'docs/behaviour.md#lists: "newest first"; docs/fidelity.md#objects: "Its page parameters are not published"';

/** Clients sharing one new e-mail address, oldest first: a set that `?q=` narrows the client list to. */
export async function clientsOfOneAddress(api: ApiClient, count: number): Promise<{ email: string; clients: Client[] }> {
  const email = `${unique('list')}@example.com`;
  const clients: Client[] = [];
  for (let i = 0; i < count; i += 1) clients.push(await makeClient(api, { email }));
  return { email, clients };
}

/**
 * A page's link (`next` or `previous`) as a path under the API base, after checking it is an absolute
 * http(s) URL of a path there. Its origin is not compared with the base URL's: a server answers the
 * host it was asked at, and behind a reverse proxy (or the suite's own fault proxy) that is another.
 */
export function linkPath(target: TargetConfig, link: string): string {
  const base = new URL(target.baseUrl).pathname.replace(/\/+$/, '');
  let url: URL | undefined;
  try {
    url = new URL(link);
  } catch {
    url = undefined;
  }
  expect(url !== undefined && /^https?:$/.test(url.protocol), `the link ${link} must be an absolute http(s) URL`).toBe(true);
  expect(url!.pathname.startsWith(`${base}/`), `the link ${link} must name a path under the API base ${target.baseUrl}`).toBe(true);
  return `${url!.pathname.slice(base.length)}${url!.search}`;
}

/** The query parameters `keep` (the filters and page_size) that a link must carry with the values asked for. */
function expectKeeps(link: string, keep: Record<string, string>, which: string): void {
  const query = new URL(link).searchParams;
  for (const [name, value] of Object.entries(keep)) {
    expect(query.get(name), `${which} (${link}) must keep the request's ${name}=${value}`).toBe(value);
  }
}

/** The pages of a walk, in the order read, each with the path it was read from. */
export interface Walk<T> {
  pages: Array<{ path: string; list: List<T> }>;
  /** Every object of every page, in the order read. */
  items: T[];
}

/** The most pages a walk reads: a set the check made holds a few objects. */
const MAX_PAGES = 20;

/**
 * Reads `collection` with the query `filters` and `page_size`, following `next` to the end. Every
 * page is checked on the way: at most `pageSize` objects (or a single page that holds all, from a
 * target whose page size is its own), `previous` null on the first page, each `next` an absolute
 * URL that keeps the filters and page_size, and no empty page reached through a `next` (the page
 * holding the last object must say `next: null`).
 */
export async function walkPages<T extends Node>(api: ApiClient, target: TargetConfig, collection: string, filters: Record<string, string>, pageSize: number): Promise<Walk<T>> {
  const keep = { ...filters, page_size: String(pageSize) };
  const walk: Walk<T> = { pages: [], items: [] };
  let path: string | null = `${collection}?${new URLSearchParams(keep)}`;
  while (path !== null) {
    expect(walk.pages.length, `GET ${collection}: more than ${MAX_PAGES} pages for a set of a few objects`).toBeLessThan(MAX_PAGES);
    const list = expectStatus(await api.get(path), 200, `GET ${path}`) as List<T>;
    const which = `page ${walk.pages.length + 1} of ${collection}?${new URLSearchParams(filters)}`;
    if (walk.pages.length === 0) expect(list.previous, `${which}: the first page has no previous page`).toBeNull();
    else expect(list.results.length, `${which}, reached through next, is empty: the page before it held the last object, so its next must be null`).toBeGreaterThan(0);
    if (list.results.length > pageSize) expect(list.next, `${which} holds ${list.results.length} objects, more than page_size=${pageSize}, yet links a next page`).toBeNull();
    walk.pages.push({ path, list });
    walk.items.push(...list.results);
    path = null;
    if (list.next !== null) {
      expectKeeps(list.next, keep, `${which}: next`);
      path = linkPath(target, list.next);
    }
  }
  return walk;
}

/** Every object of `expected` (ids) appears exactly once across the walk's pages, and nothing else does. */
export function expectEachOnce(walk: Walk<Node>, expected: string[], what: string): void {
  const ids = walk.items.map((item) => item.id as string);
  const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
  expect(repeated, `${what}: an object appears on more than one page (pages overlap)`).toEqual([]);
  const foreign = ids.filter((id) => !expected.includes(id));
  expect(foreign, `${what}: the pages hold objects outside the set asked for`).toEqual([]);
  const missing = expected.filter((id) => !ids.includes(id));
  expect(missing, `${what}: objects of the set appear on no page`).toEqual([]);
}

/**
 * `previous` of the walk's second page leads back to its first: the same objects, the filters and
 * page_size kept. A walk of one page has nothing to check.
 */
export async function expectPreviousLeadsBack(api: ApiClient, target: TargetConfig, walk: Walk<Node>, filters: Record<string, string>, pageSize: number): Promise<void> {
  const second = walk.pages[1];
  if (!second) return;
  const link = second.list.previous;
  expect(link, 'page 2 links back to page 1 (previous)').not.toBeNull();
  expectKeeps(link!, { ...filters, page_size: String(pageSize) }, 'page 2: previous');
  const back = expectStatus(await api.get(linkPath(target, link!)), 200, `GET ${link}`) as List<Node>;
  expect(back.results.map((item) => item.id), 'previous of page 2 answers the objects of page 1').toEqual(walk.pages[0]!.list.results.map((item) => item.id));
}
