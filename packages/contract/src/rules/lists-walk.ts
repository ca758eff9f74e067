// lists.walk: a paged list walked whole, at a small page size (its last page partly filled), at the
// largest, and at its whole count (one page exactly filled), compared across its pages. One response at a time (response.pagination) cannot see a total_count that is really
// the page's length, a gap or a duplicate between pages, or has_more set on the last page; the
// walk can. The paging parameters are those the Pagination schema names (page, size) among the
// operation's query parameters; the largest size is info.x-svc-limits.page_size_max. A list with
// an optional line filter (a phone-number query parameter: the conversation list) is walked again
// narrowed to each line of the team, up to --fixtures-per-kind, with a key allowed on that line.
import { isDeepStrictEqual } from 'node:util';
import { isObject, type Operation } from '@svc/spec-runtime';
import type { OpRequest } from '../expectations/expect.js';
import { LINE_FORBIDDEN } from '../expectations/readings.js';
import { isPhone } from '../generate/schema.js';
import { type ApiRequest, type Exchange, errorCode } from '../http/exchange.js';
import type { Spec } from '../spec.js';
import type { CheckContext, Held, Problem } from './harness.js';

/** The small page size of the walk: pages of two show gaps and duplicates between pages. */
const SMALL = 2;
/** At most this many pages per walk: a larger list is walked with pages big enough to fit. */
const MAX_PAGES = 25;

/** The operation's page and size parameters, when it is a paged list (both named by Pagination). */
export function pagingOf(spec: Spec, op: Operation): { page: string; size: string } | undefined {
  const names = Object.keys(spec.schema('Pagination')?.properties ?? {});
  const query = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  const [page, size] = ['page', 'size'].filter((n) => names.includes(n) && query.includes(n));
  return page && size ? { page, size } : undefined;
}

interface Page {
  exchange: Exchange;
  entries: unknown[];
  pagination: Record<string, unknown>;
}

export interface Walk {
  size: number;
  pages: Page[];
  /** The page after the last, as answered. */
  past?: Exchange;
}

function pageOf(exchange: Exchange): Page | undefined {
  const body = exchange.body;
  if (!isObject(body)) return undefined;
  const { data, pagination } = body as { data?: unknown; pagination?: unknown };
  if (!Array.isArray(data) || !isObject(pagination)) return undefined;
  return { exchange, entries: data, pagination: pagination as Record<string, unknown> };
}

async function walk(
  t: CheckContext,
  base: OpRequest,
  names: { page: string; size: string },
  size: number,
  extra: Partial<ApiRequest> = {},
) {
  const result: Walk = { size, pages: [] };
  const at = (page: number) =>
    t.call({ ...base, query: { ...base.query, [names.page]: String(page), [names.size]: String(size) } }, extra);
  for (let n = 1; n <= MAX_PAGES; n++) {
    const exchange = await at(n);
    const page = pageOf(exchange);
    if (!page) return { ...result, past: exchange };
    result.pages.push(page);
    if (page.pagination.has_more !== true) break;
  }
  result.past = await at(result.pages.length + 1);
  return result;
}

export interface Walks {
  small: Walk;
  whole: Walk;
  /** The whole list on one page exactly filled (size = total_count): its has_more is false all the same. */
  exact?: Walk;
  /** The same list narrowed to each line of the team (its line filter), where it has one. */
  lines?: Array<{ line: string; walks: Walks }>;
  /** The lines no key of the run may use (the run key refused, no line-limited key listing them): not walked. */
  unwalked?: string[];
}

/** Walks the list at the largest size, then at a small one (larger when the list needs more than MAX_PAGES). */
async function walkBoth(t: CheckContext, base: OpRequest, names: { page: string; size: string }, extra = {}) {
  const whole = await walk(t, base, names, Number(t.spec.pageSizeMax), extra);
  const total = Number(whole.pages[0]?.pagination.total_count ?? 0);
  const least = Math.max(SMALL, Math.ceil(total / MAX_PAGES));
  // A size that leaves the last page partly filled, where one near the least does: its page
  // still says the size asked for, not the count it holds. A list no longer than the least (a
  // line's share of the conversations) is walked a page short of its count, so it has two pages.
  const size =
    [least, least + 1, least + 2].find((s) => total > s && total % s !== 0) ??
    (total > least ? least : Math.max(1, total - 1));
  const small = await walk(t, base, names, size, extra);
  return { small, whole };
}

/**
 * The list narrowed to each line, with the run's key or, where that is refused the line, a
 * line-limited key of the config listing it; a line no key may use is kept apart (unwalked).
 */
async function walkEachLine(t: CheckContext, op: Operation, base: OpRequest, names: { page: string; size: string }) {
  const filter = op.parameters.find((p) => p.in === 'query' && !p.required && isPhone(t.spec, p.schema))?.name;
  if (!filter || base.query?.[filter] !== undefined) return undefined;
  const lines: Array<{ line: string; walks: Walks }> = [];
  const unwalked: string[] = [];
  for (const line of (await t.fixtures()).lines.slice(0, t.config.fixturesPerKind ?? 20)) {
    const narrowed = { ...base, query: { ...base.query, [filter]: line } };
    let walks = await walkBoth(t, narrowed, names);
    const refused =
      walks.whole.pages.length === 0 && walks.whole.past && errorCode(walks.whole.past) === LINE_FORBIDDEN;
    if (refused) {
      const key = t.config.config.keys.find((k) => k.kind === 'line-limited' && (k.lines ?? []).includes(line));
      if (!key) {
        unwalked.push(`${filter}=${line}`);
        continue;
      }
      walks = await walkBoth(t, narrowed, names, { auth: { kind: 'key', key: key.key } });
    }
    lines.push({ line, walks });
  }
  return { lines, unwalked };
}

/** The whole list at two sizes and on one page exactly filled, then narrowed to each line where it takes a line filter. */
export async function walkList(t: CheckContext, op: Operation, base: OpRequest): Promise<Walks> {
  const names = pagingOf(t.spec, op);
  if (!names) return t.skip('not a paged list');
  const narrowed = await walkEachLine(t, op, base, names);
  const both = await walkBoth(t, base, names);
  // The small walk's last page is partly filled; a page exactly filled is the other edge of has_more.
  const total = Number(both.whole.pages[0]?.pagination.total_count ?? 0);
  const exact =
    total >= SMALL && total < Number(t.spec.pageSizeMax) && total !== both.small.size
      ? { exact: await walk(t, base, names, total) }
      : {};
  return { ...both, ...exact, ...(narrowed ?? {}) };
}

/** A line no key may use is said, as a pass beside whatever the walks found (Rule.held), not failed. */
export function unwalkedLines({ unwalked = [] }: Walks): Held[] {
  return unwalked.map((filtered) => ({
    detail: `${filtered}: no key allowed on it (the run key is refused ${LINE_FORBIDDEN}), not walked`,
  }));
}

/** Entries compared as values, whatever their key order. */
const sameEntry = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);

function walkProblems(w: Walk, reference: unknown[]): Problem[] {
  const problems: Problem[] = [];
  const first = w.pages[0];
  if (!first)
    return [
      {
        message: `size ${w.size}: the first page is not a list with pagination`,
        ...(w.past ? { exchange: w.past } : {}),
      },
    ];
  const union = w.pages.flatMap((p) => p.entries);
  const total = first.pagination.total_count;
  for (const [i, p] of w.pages.entries()) {
    const last = i === w.pages.length - 1;
    const where = `size ${w.size}, page ${i + 1} of ${w.pages.length}`;
    if (p.pagination.total_count !== total)
      problems.push({
        message: `${where}: total_count ${String(p.pagination.total_count)}, page 1 said ${String(total)}`,
        exchange: p.exchange,
      });
    if (p.pagination.total_pages !== undefined && p.pagination.total_pages !== first.pagination.total_pages)
      problems.push({
        message: `${where}: total_pages ${String(p.pagination.total_pages)}, page 1 said ${String(first.pagination.total_pages)}`,
        exchange: p.exchange,
      });
    if ((p.pagination.has_more === true) === last)
      problems.push({
        message: `${where}: has_more is ${String(p.pagination.has_more)} on ${last ? 'the last page' : 'a page before the last'}`,
        exchange: p.exchange,
      });
  }
  const lastPage = w.pages.at(-1) as Page;
  if (total !== union.length)
    problems.push({
      message: `size ${w.size}: total_count is ${String(total)}, but the pages hold ${union.length} entries in all`,
      exchange: lastPage.exchange,
    });
  if (first.pagination.total_pages !== undefined && first.pagination.total_pages !== w.pages.length)
    problems.push({
      message: `size ${w.size}: total_pages is ${String(first.pagination.total_pages)}, but ${w.pages.length} pages were walked`,
      exchange: lastPage.exchange,
    });
  const left = [...reference];
  for (const entry of union) {
    const i = left.findIndex((r) => sameEntry(r, entry));
    if (i < 0)
      problems.push({
        message: `size ${w.size}: an entry appears on more pages than the whole list holds it: ${JSON.stringify(entry).slice(0, 120)}`,
        exchange: lastPage.exchange,
      });
    else left.splice(i, 1);
  }
  if (left.length > 0)
    problems.push({
      message: `size ${w.size}: ${left.length} entr${left.length === 1 ? 'y' : 'ies'} of the whole list on no page (a gap), e.g. ${JSON.stringify(left[0]).slice(0, 120)}`,
      exchange: lastPage.exchange,
    });
  const past = w.past ? pageOf(w.past) : undefined;
  if (w.past && !past && w.past.status === 400)
    problems.push({
      message:
        `size ${w.size}: the page after the last (page ${w.pages.length + 1}, a page number the contract allows) was refused as invalid: 400 ${errorCode(w.past) ?? ''}`.trimEnd(),
      exchange: w.past,
    });
  if (past && past.entries.length > 0)
    problems.push({
      message: `size ${w.size}: the page after the last holds ${past.entries.length} entries`,
      exchange: past.exchange,
    });
  return [...problems, ...pagingEchoProblems(w, past)];
}

/**
 * Each page, the one after the last too, says the page and size it was asked for, and the page
 * after the last counts the same whole as page 1 ("pagination { page, size, total_count,
 * total_pages, has_more }": the whole list's count, wherever the page falls).
 */
function pagingEchoProblems(w: Walk, past: Page | undefined): Problem[] {
  const problems: Problem[] = [];
  const pages = past ? [...w.pages, past] : w.pages;
  pages.forEach((p, i) => {
    const { page, size } = p.pagination;
    if (typeof size === 'number' && size !== w.size)
      problems.push({ message: `size ${w.size}, page ${i + 1}: pagination.size is ${size}`, exchange: p.exchange });
    if (typeof page === 'number' && page !== i + 1)
      problems.push({ message: `size ${w.size}, page ${i + 1}: pagination.page is ${page}`, exchange: p.exchange });
  });
  const first = w.pages[0]?.pagination;
  if (past && first)
    for (const field of ['total_count', 'total_pages'])
      if (typeof past.pagination[field] === 'number' && past.pagination[field] !== first[field])
        problems.push({
          message: `size ${w.size}: the page after the last says ${field} ${String(past.pagination[field])}, page 1 said ${String(first[field])}`,
          exchange: past.exchange,
        });
  return problems;
}

/** The pages partition the whole: each walk against the list read at the largest size (where it fits one page). */
export function listProblems({ small, whole, exact, lines = [] }: Walks): Problem[] {
  const reference = whole.pages.length === 1 ? (whole.pages[0] as Page).entries : whole.pages.flatMap((p) => p.entries);
  const own = [whole, small, ...(exact ? [exact] : [])].flatMap((w) => walkProblems(w, reference));
  const narrowed = lines.flatMap(({ line, walks }) =>
    listProblems(walks).map((p) => ({ ...p, message: `on line ${line}: ${p.message}` })),
  );
  return [...own, ...narrowed];
}
