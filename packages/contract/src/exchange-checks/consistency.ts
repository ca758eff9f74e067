// Internal consistency of a response, beyond what a schema can say: the pagination block adds up
// (total_pages from total_count and size, has_more from the page, the page's length, page and
// size as requested), fields the description allows only on some errors appear only there
// (retry_after_seconds: "rate limits only"), and the rate-limit headers agree with each other
// (Remaining never above Limit).
import { isObject } from '@svc/spec-runtime';
import { type Exchange, errorOf, header } from '../http/exchange.js';
import type { Spec } from '../spec.js';

const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** Problems of the pagination block of a 2xx list response (empty: none, or no pagination block). */
export function paginationProblems(exchange: Exchange, stateless = false): string[] {
  const body = exchange.body;
  if (
    exchange.status < 200 ||
    exchange.status >= 300 ||
    !isObject(body) ||
    !isObject(body.pagination) ||
    !Array.isArray(body.data)
  )
    return [];
  const p = body.pagination;
  const [page, size, total, pages] = [int(p.page), int(p.size), int(p.total_count), int(p.total_pages)];
  const problems: string[] = [];
  const sent = exchange.request.query ?? {};
  // A stateless mock answers its example whatever was asked: only its arithmetic can be checked.
  for (const [name, value] of stateless
    ? []
    : ([
        ['page', page],
        ['size', size],
      ] as const)) {
    const asked = sent[name];
    if (asked !== undefined && /^\d+$/.test(asked) && value !== undefined && value !== Number(asked))
      problems.push(`${name} ${asked} was asked, pagination.${name} is ${value}`);
  }
  if (page === undefined || size === undefined || total === undefined || size < 1) return problems;
  const expectedPages = Math.ceil(total / size);
  // No items: 0 pages by the arithmetic; a single empty page is a harmless reading of the same.
  if (pages !== undefined && pages !== expectedPages && !(total === 0 && pages === 1))
    problems.push(`total_pages ${pages}, but total_count ${total} in pages of ${size} makes ${expectedPages}`);
  const more = page * size < total;
  if (typeof p.has_more === 'boolean' && p.has_more !== more)
    problems.push(
      `has_more ${String(p.has_more)} on page ${page} of ${expectedPages} (total_count ${total}, size ${size})`,
    );
  const length = Math.max(0, Math.min(size, total - (page - 1) * size));
  if (body.data.length !== length)
    problems.push(
      `page ${page} holds ${body.data.length} entries; total_count ${total} in pages of ${size} puts ${length} on it`,
    );
  return problems;
}

/** Fields an error carries that the description allows only on other errors. */
export function errorFieldProblems(spec: Spec, exchange: Exchange): string[] {
  const error = errorOf(exchange);
  if (!error || exchange.status < 400) return [];
  const entry = typeof error.code === 'string' ? spec.contract.catalogue.get(error.code) : undefined;
  const rateLimited = exchange.status === 429 || entry?.type === 'rate_limit_error';
  const after = error.retry_after_seconds;
  return !rateLimited && after !== undefined && after !== null
    ? [
        `retry_after_seconds ${JSON.stringify(after)} on ${String(error.code)}: the description allows it on rate limits only`,
      ]
    : [];
}

/** Rate-limit headers that contradict each other (Remaining above Limit). */
export function rateLimitProblems(spec: Spec, exchange: Exchange): string[] {
  const limit = Number(header(exchange, spec.rateLimitHeaders.limit));
  const remaining = Number(header(exchange, spec.rateLimitHeaders.remaining));
  if (!Number.isFinite(limit) || !Number.isFinite(remaining)) return [];
  return remaining > limit
    ? [`${spec.rateLimitHeaders.remaining} ${remaining} is above ${spec.rateLimitHeaders.limit} ${limit}`]
    : [];
}
