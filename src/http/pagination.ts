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
 * `items` in creation order; the page is cut from the newest end, read backwards in place: the
 * whole list is never reversed (a sandbox's 100,000 events were copied twice for every page of 100).
 */
export function paginate<T>(items: Iterable<T>, query: Record<string, unknown>, url: string): Page<T> {
  const page = (query.page as number | undefined) ?? 1;
  const pageSize = (query.page_size as number | undefined) ?? DEFAULT_PAGE_SIZE;
  const all = Array.isArray(items) ? (items as readonly T[]) : [...items];
  const start = (page - 1) * pageSize;
  const results: T[] = [];
  for (let i = all.length - 1 - start; i >= 0 && results.length < pageSize; i -= 1) results.push(all[i]!);
  return {
    results,
    next: start + pageSize < all.length ? link(url, query, page + 1, pageSize) : null,
    previous: page > 1 ? link(url, query, Math.min(page - 1, Math.max(1, Math.ceil(all.length / pageSize))), pageSize) : null,
  };
}
