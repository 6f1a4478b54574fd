// DESIGN.md §3 lists: {results, next, previous} with absolute URLs, 1-based `page`, `page_size`
// 100 by default and 1000 at most (the schema enforces the bounds), newest first. A page past the
// end is an empty page, not an error, so a client looping on `next` never sees a 404.

export interface Page<T> {
  results: T[];
  next: string | null;
  previous: string | null;
}

export const DEFAULT_PAGE_SIZE = 100;

/** A page's URL, keeping the request's other query parameters (its filters). */
function link(url: string, query: Record<string, unknown>, page: number, pageSize: number): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (name !== 'page' && name !== 'page_size' && value !== undefined) params.set(name, String(value));
  }
  params.set('page', String(page));
  params.set('page_size', String(pageSize));
  return `${url}?${params}`;
}

/**
 * The page that the query asks for of `items` (in creation order; those that `matches`, when
 * given), newest first: read backwards from the end, stopping one match past the page, which is
 * enough to know there is a next one. Page 1 of a sandbox's 1.2 million purchases reads 101 of
 * them. Only a page past the end reads every item, and then has the count for its `previous`.
 */
export function paginate<T>(items: readonly T[], query: Record<string, unknown>, url: string, matches?: (item: T) => boolean): Page<T> {
  const page = (query.page as number | undefined) ?? 1;
  const pageSize = (query.page_size as number | undefined) ?? DEFAULT_PAGE_SIZE;
  const start = (page - 1) * pageSize;
  const results: T[] = [];
  // Matches passed so far; without a filter, the first `start` are skipped by index.
  let seen = matches ? 0 : Math.min(start, items.length);
  let more = false;
  for (let i = items.length - 1 - seen; i >= 0; i -= 1) {
    const item = items[i]!;
    if (matches && !matches(item)) continue;
    if (seen === start + pageSize) {
      more = true;
      break;
    }
    if (seen >= start) results.push(item);
    seen += 1;
  }
  return {
    results,
    next: more ? link(url, query, page + 1, pageSize) : null,
    // Unless the page is past the end, this is page - 1; past it, `seen` counted every match.
    previous: page > 1 ? link(url, query, Math.min(page - 1, Math.max(1, Math.ceil(seen / pageSize))), pageSize) : null,
  };
}
