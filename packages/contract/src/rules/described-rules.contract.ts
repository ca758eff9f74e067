// The rules of x-svc-response-rules no other check enforces, each derived from its entry in the
// spec (never typed here): a list the contract orders (described.order), a list that never holds
// some values (described.excludes), an error whose field names something (described.error-mentions).
// Each is read-only: order and excludes read what the fixtures name (a server that keeps state),
// error-mentions one broken request per read (any server, a mock too).
import { deref, type Operation } from '@svc/spec-runtime';
import type { OpRequest } from '../expectations/expect.js';
import type { Fixtures } from '../fixtures.js';
import { type NegativeCase, negativeCases } from '../generate/negatives.js';
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
import { brokenValue, missingName } from './described-requests.js';
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
    title: 'A list the contract orders (kind order) comes in that order in every response read',
    source: 'x-svc-response-rules (kind order)',
    precondition: 'a thread with two comments or more (fixtures.thread_ids, or discovered threads)',
    // Claimed in the full sentence audit of partial updates and x-svc-response-rules (issue 24, item 5).
    enforces: ['x-svc-response-rules COMMENTS_IN_CREATION_ORDER'],
    ...whereOf(op),
    variant: entry.rule,
    needs: { stateful: true },
    requests: async (t) => {
      // One after the other, as every check sends: the pacer and the rate-limit window see them in order.
      const exchanges: Exchange[] = [];
      for (const request of await requestsOf(t, op)) exchanges.push(await t.call(request));
      return exchanges;
    },
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
    title: 'A list the contract says omits some values (kind excludes) holds none of them, on any page',
    source: 'x-svc-response-rules (kind excludes) + fixtures.built_in_field_keys',
    precondition:
      "the whole custom field list and the built-in keys (the description's examples and fixtures.built_in_field_keys)",
    // Claimed in the full sentence audit of partial updates and x-svc-response-rules (issue 24, item 5).
    enforces: ['x-svc-response-rules BUILT_IN_FIELDS_NOT_LISTED'],
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

/** What a broken request's error must name under a rule, and the request: undefined where the case does not fit it. */
interface Mention {
  request: OpRequest;
  label: string;
  texts: string[];
  /** The refusal has other readings (x-svc-ambiguity): an answer of another code or type is theirs to judge. */
  readings: boolean;
}

function mentionOf(entry: ErrorMentionsRule, c: NegativeCase, base: OpRequest): Mention | undefined {
  if (c.raw) return undefined;
  const label = c.label;
  const readings = (c.expected.or?.length ?? 0) > 0;
  if (entry.code && !c.expected.codes.includes(entry.code)) return undefined;
  if (entry.type && c.expected.status !== 400) return undefined;
  if (entry.mentions) return { request: c.request, label, texts: entry.mentions, readings };
  if (entry.names === 'missing-parameter') {
    const name = missingName(base, c.request);
    return name ? { request: c.request, label, texts: [name], readings } : undefined;
  }
  if (entry.names === 'failing-value') {
    const value = brokenValue(base, c.request);
    if (value === undefined) return undefined;
    // As sent, or as it travelled in the URL (a server may quote either).
    return { request: c.request, label, texts: [...new Set([value, encodeURIComponent(value)])], readings };
  }
  return undefined;
}

function mentionProblems(entry: ErrorMentionsRule, exchange: Exchange, mention: Mention): Problem[] {
  const error = errorOf(exchange);
  const fits = entry.code ? errorCode(exchange) === entry.code : error?.type === entry.type;
  const what = entry.code ?? entry.type;
  if (!fits)
    return mention.readings
      ? []
      : [{ message: `${entry.rule}: expected a ${what} error to read, got ${exchange.status}`, exchange }];
  const text = String(error?.[entry.field] ?? '');
  if (mention.texts.some((m) => text.includes(m))) return [];
  return [
    {
      message: `${entry.rule}: error.${entry.field} of ${errorCode(exchange)} names none of ${mention.texts.map((m) => JSON.stringify(m)).join(', ')} (${mention.label}): ${short(text)}`,
      exchange,
    },
  ];
}

const longest = (m: Mention) => Math.max(...m.texts.map((x) => x.length));

/** Reads with a broken request whose documented refusal the rule is about: one request each. */
function declareMentions(entry: ErrorMentionsRule): void {
  for (const op of spec.contract.operations.filter(isRead)) {
    const base = exampleRequest(op);
    // The longest text first: a one-character value proves little when found in a message.
    const mention = negativeCases(spec, op, base)
      .map((c) => mentionOf(entry, c, base))
      .filter((m) => m !== undefined)
      .sort((a, b) => longest(b) - longest(a))[0];
    if (!mention) continue;
    rule({
      id: 'described.error-mentions',
      title: 'An error the contract says names something (kind error-mentions) names it in the stated field',
      source: 'x-svc-response-rules (kind error-mentions)',
      precondition: 'a request the server must refuse for each error-mentions rule: one broken value per read',
      // Claimed in the full sentence audit of partial updates and x-svc-response-rules (issue 24, item 5).
      enforces: ['x-svc-response-rules MISSING_PARAMETER_NAMED', 'x-svc-response-rules FAILING_VALUE_IN_MESSAGE'],
      ...whereOf(op),
      variant: entry.rule,
      needs: {},
      requests: (t) => t.call(mention.request),
      problems: (exchange) => mentionProblems(entry, exchange, mention),
      passed: () => `${entry.rule}: ${mention.label}`,
    });
  }
}

for (const op of spec.contract.operations.filter(isRead))
  for (const entry of operationResponseRules(op)) {
    if (entry.kind === 'order') declareOrder(op, entry);
    if (entry.kind === 'excludes') declareExcludes(op, entry);
  }
for (const entry of errorResponseRules(spec)) declareMentions(entry);
