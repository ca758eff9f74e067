export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 20;

/** The API-wide list envelope: { data, pagination: { page, size, total_count, total_pages, has_more } }. */
export function paginate<T>(items: readonly T[], page = DEFAULT_PAGE, size = DEFAULT_PAGE_SIZE) {
  const totalPages = Math.ceil(items.length / size);
  const start = (page - 1) * size;
  return {
    data: items.slice(start, start + size),
    pagination: { page, size, total_count: items.length, total_pages: totalPages, has_more: page < totalPages },
  };
}

/** page and size from a query string already validated against the contract (integers in range). */
export function pageFromQuery(query: URLSearchParams): { page: number; size: number } {
  const page = query.get('page');
  const size = query.get('size');
  return { page: page === null ? DEFAULT_PAGE : Number(page), size: size === null ? DEFAULT_PAGE_SIZE : Number(size) };
}
