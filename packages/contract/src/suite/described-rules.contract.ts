// The rules of x-svc-response-rules no other check enforces, each derived from its entry in the
// spec (never typed here): a list the contract orders (described.order), a list that never holds
// some values (described.excludes), an error whose field names something (described.error-mentions).
// Each read-only: they read what the fixtures already name, so every profile that keeps state runs them.
import { deref, type Operation } from '@svc/spec-runtime';
import type { OpRequest } from '../checks/expect.js';
import type { Fixtures } from '../fixtures.js';
import { negativeCases } from '../generate/negatives.js';
import { isPhone, sample } from '../generate/schema.js';
import { type Exchange, errorCode, errorOf } from '../http/exchange.js';
import {
  type ErrorMentionsRule,
  type ExcludesRule,
  errorResponseRules,
  type OrderRule,
  operationResponseRules,
  valueAtPath,
} from '../reach/response-rules.js';
import { loadSpec, type Spec } from '../spec.js';
import { orderProblems } from './described-order.js';
import { type CheckContext, type Problem, rule } from './harness.js';
import { short } from './support.js';

const spec = loadSpec();
const isRead = (op: Operation) => !spec.contract.limits.writeMethods.includes(op.method) || spec.isSafe(op);
const whereOf = (op: Operation) => ({ operationId: op.operationId, resource: spec.resourceOf(op) });

/** Fixture values for a path parameter: the ids of its prefix (x-svc-id-prefix), or the lines for a phone number. */
function valuesFor(s: Spec, schema: unknown, f: Fixtures): string[] {
  const prefix = deref(s.contract, schema)['x-svc-id-prefix'];
  const ids = [
    ...f.threads.map((x) => x.id),
    ...f.notes.map((x) => x.id),
    ...f.items.map((x) => x.id),
    ...f.users,
    ...f.deals,
    ...f.people,
  ];
  if (typeof prefix === 'string') return ids.filter((id) => id.startsWith(prefix));
  return isPhone(s, deref(s.contract, schema)) ? f.lines : [];
}

/** One request per fixture of the operation's single path parameter (none: the request without one). */
async function requestsOf(t: CheckContext, op: Operation): Promise<OpRequest[]> {
  const path = op.parameters.filter((p) => p.in === 'path');
  if (path.length === 0) return [{}];
  const [param] = path;
  if (path.length > 1 || !param) return t.skip('the rule is read on operations with at most one path parameter');
  const known = [...new Set(valuesFor(t.spec, param.schema, await t.fixtures()))];
  const values = known.slice(0, t.config.fixturesPerKind ?? 20);
  if (values.length === 0) return t.skip(`no fixture for ${param.name} of ${op.operationId}`, 'config');
  return values.map((value) => ({ params: { [param.name]: value } }));
}

function declareOrder(op: Operation, entry: OrderRule): void {
  rule({
    id: 'described.order',
    ...whereOf(op),
    variant: entry.rule,
    needs: { stateful: true },
    requests: async (t) => Promise.all((await requestsOf(t, op)).map((r) => t.call(r))),
    problems: (exchanges) => exchanges.flatMap((exchange) => orderProblems(entry, exchange)),
    passed: (exchanges) => `${entry.rule}: ${exchanges.length} response(s) in order of ${entry.by}`,
  });
}

/** At most this many pages of a list are read for an excludes rule. */
const MAX_PAGES = 25;

/** Every page of a paged list at its largest size (a list without paging: the one answer). */
async function readAllPages(t: CheckContext, op: Operation): Promise<Exchange[]> {
  const size = op.parameters.find((p) => p.in === 'query' && p.name === 'size');
  const largest = typeof size?.schema.maximum === 'number' ? String(size.schema.maximum) : undefined;
  const pages: Exchange[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const query = largest ? { page: String(page), size: largest } : undefined;
    const exchange = await t.call(query ? { query } : {});
    pages.push(exchange);
    const more = (exchange.body as { pagination?: { has_more?: unknown } } | undefined)?.pagination?.has_more;
    if (!largest || more !== true) break;
  }
  return pages;
}

function declareExcludes(op: Operation, entry: ExcludesRule): void {
  rule({
    id: 'described.excludes',
    ...whereOf(op),
    variant: entry.rule,
    needs: { stateful: true },
    requests: async (t) => {
      // The description's examples, and the server's own built-in keys where the config names them.
      const excluded = new Set([...entry.examples, ...(await t.fixtures()).builtInFieldKeys]);
      if (excluded.size === 0) return t.skip(`${entry.rule}: no value to look for`, 'config');
      return { excluded, pages: await readAllPages(t, op) };
    },
    problems: ({ excluded, pages }) =>
      pages.flatMap((exchange) => {
        const entries = valueAtPath(exchange.body, entry.array);
        if (!Array.isArray(entries)) return [{ message: `${entry.rule}: no list at ${entry.array}`, exchange }];
        const found = entries.map((e) => valueAtPath(e, entry.field)).filter((v) => excluded.has(String(v)));
        return found.map((v) => ({
          message: `${entry.rule}: the list holds ${entry.field} ${short(v)}, which it must not (${entry.description.trim()})`,
          exchange,
        }));
      }),
    passed: ({ excluded, pages }) => `${entry.rule}: none of ${[...excluded].join(', ')} on ${pages.length} page(s)`,
  });
}

/** A request of the operation with only its path and required query parameters, from their examples. */
function exampleRequest(op: Operation): OpRequest {
  const of = (where: string, required: boolean) =>
    Object.fromEntries(
      op.parameters
        .filter((p) => p.in === where && (p.required || !required))
        .map((p) => [p.name, String(sample(spec, p.schema))]),
    );
  return { params: of('path', false), query: of('query', true) };
}

function mentionProblems(entry: ErrorMentionsRule, exchange: Exchange, mentions: string[]): Problem[] {
  if (errorCode(exchange) !== entry.code)
    return [{ message: `${entry.rule}: expected a ${entry.code} error to read, got ${exchange.status}`, exchange }];
  const text = String(errorOf(exchange)?.[entry.field] ?? '');
  if (mentions.some((m) => text.includes(m))) return [];
  return [
    {
      message: `${entry.rule}: error.${entry.field} of ${entry.code} names none of ${mentions.join(', ')}: ${short(text)}`,
      exchange,
    },
  ];
}

/** Reads whose documented refusal carries the rule's code: each answers one broken request. */
function declareMentions(entry: ErrorMentionsRule): void {
  // A text such as "the scope the key lacks" depends on the request: its own check reads it.
  const mentions = entry.mentions;
  if (!Array.isArray(mentions)) return;
  for (const op of spec.contract.operations.filter(isRead)) {
    const broken = negativeCases(spec, op, exampleRequest(op)).find(
      (c) => !c.raw && c.expected.codes?.includes(entry.code),
    );
    if (!broken) continue;
    rule({
      id: 'described.error-mentions',
      ...whereOf(op),
      variant: entry.rule,
      needs: {},
      requests: (t) => t.call(broken.request),
      problems: (exchange) => mentionProblems(entry, exchange, mentions),
      passed: () => `${entry.rule}: ${broken.label}`,
    });
  }
}

for (const op of spec.contract.operations.filter(isRead))
  for (const entry of operationResponseRules(op)) {
    if (entry.kind === 'order') declareOrder(op, entry);
    if (entry.kind === 'excludes') declareExcludes(op, entry);
  }
for (const entry of errorResponseRules(spec)) declareMentions(entry);
