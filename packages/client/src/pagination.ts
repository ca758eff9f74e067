import { SvcApiError } from './errors.js';
import type { SvcResultMeta } from './types.js';

/** A GET through the client, untyped (the typing lives on the public methods). */
export type ListCall = (
  url: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response } & SvcResultMeta>;

interface PaginateOptions {
  maxItems?: number;
  maxPages?: number;
  params?: { query?: Record<string, unknown> } & Record<string, unknown>;
  [option: string]: unknown;
}

interface ListBody {
  data?: unknown[];
  pagination?: { page?: number; has_more?: boolean };
}

/**
 * Walks a list page by page: the first request is the caller's own (its `page`, if any, is where
 * the walk starts); then, while `pagination.has_more` is true, it asks for `pagination.page + 1`.
 * A list without `pagination` is a single page. An empty page ends the walk too, so a server that
 * never says `has_more: false` cannot make it spin forever. It stops after `maxPages` pages, or
 * after the page that brings the items seen to `maxItems`. An error page throws SvcApiError.
 */
export async function* paginatePages(call: ListCall, url: string, options: PaginateOptions = {}) {
  const { maxItems = Number.POSITIVE_INFINITY, maxPages = Number.POSITIVE_INFINITY, ...init } = options;
  let query = init.params?.query;
  let items = 0;
  for (let fetched = 0; fetched < maxPages && items < maxItems; fetched++) {
    const result = await call(url, query === undefined ? init : { ...init, params: { ...init.params, query } });
    if (!result.response.ok) throw SvcApiError.fromResponse(result.response, result.error, result.requestId);
    yield result;
    const body = result.data as ListBody | undefined;
    items += body?.data?.length ?? 0;
    if (!body?.pagination?.has_more || !body.data?.length) return;
    const current = body.pagination.page ?? (typeof query?.page === 'number' ? query.page : 1);
    query = { ...query, page: current + 1 };
  }
}

/** Every item of every page, in order, stopping after `maxItems` without fetching a page more. */
export async function* paginateItems(call: ListCall, url: string, options: PaginateOptions = {}) {
  const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
  let count = 0;
  for await (const page of paginatePages(call, url, options)) {
    for (const item of (page.data as ListBody).data ?? []) {
      if (count++ >= maxItems) return;
      yield item;
    }
  }
}
