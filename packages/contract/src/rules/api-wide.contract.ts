// Checks that belong to no operation: unknown paths, undocumented methods, and (opt-in) a burst
// over the read limit. Expected codes are the catalogue's API-wide codes, found through the
// contract's own route matching.
import type { Operation } from '@svc/spec-runtime';
import { API_WIDE } from '../catalogue.js';
import { type Expected, errorProblems } from '../expectations/expect.js';
import { API_WIDE_RESOURCE } from '../filters.js';
import { need } from '../fixtures.js';
import { MALFORMED_BODY } from '../generate/negatives.js';
import { sample } from '../generate/schema.js';
import { type ApiRequest, type Exchange, errorOf, header } from '../http/exchange.js';
import { actionTo } from './conversation-actions.js';
import { type CheckContext, encodePath, type Held, type Problem, rule, statefulWrite } from './harness.js';
import { errorsOf, unless } from './problems.js';

const where = { operationId: API_WIDE, resource: API_WIDE_RESOURCE, needs: {} };

function expectedFromRoute(t: CheckContext, method: string, path: string): Expected {
  const match = t.spec.contract.matchRoute(method, path);
  if (!('error' in match)) return t.skip(`${method} ${path} is a documented operation`);
  const entry = t.spec.contract.catalogue.get(match.error);
  if (!entry) return t.skip(`the catalogue has no ${match.error}`);
  return { status: entry.status, codes: [entry.code], why: `the contract's route matching says ${entry.code}` };
}

/** One request no route answers, the error the contract's route matching says it gets, and the answer. */
interface Unrouted {
  label: string;
  expected: Expected;
  exchange: Exchange;
}

const unroutedProblems = (cases: Unrouted[]): Problem[] =>
  cases.flatMap(({ label, expected, exchange }) => errorsOf(exchange, expected, label));

/** Each request answered as the route matching says counts, whatever the others got. */
const unroutedHeld = (cases: Unrouted[]): Held[] =>
  cases
    .filter(({ expected, exchange }) => errorProblems(exchange, expected).length === 0)
    .map(({ label }) => ({ detail: label }));

/** Paths no operation has, and the write methods also sent to the first (with a body no server can parse). */
const UNKNOWN_PATHS = [
  '/v2/api/svc-contract-unknown',
  '/v2/api/threads/cth-1/svc-contract-unknown',
  '/svc-contract-unknown',
];
const UNKNOWN_PATH_WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];

rule({
  id: 'routing.unknown-path',
  title: 'An unknown path gives 404 ENDPOINT_NOT_FOUND, whatever the method',
  source: 'API-wide catalogue code: ENDPOINT_NOT_FOUND "No endpoint at this URL"',
  precondition: 'a request the server must refuse: a path no operation has, with each method',
  ...where,
  requests: async (t) => {
    const cases: Unrouted[] = [];
    const sends = [
      ...UNKNOWN_PATHS.map((path) => ({ method: 'GET', path })),
      ...UNKNOWN_PATH_WRITES.map((method) => ({ method, path: UNKNOWN_PATHS[0] ?? '' })),
    ];
    for (const { method, path } of sends) {
      const expected = expectedFromRoute(t, method, path);
      // A write with a body no server can parse: even a server that routes it cannot change anything.
      const body = method === 'GET' ? {} : { rawBody: MALFORMED_BODY, unparseable: true };
      cases.push({ label: `${method} ${path}`, expected, exchange: await t.send({ method, path, ...body }) });
    }
    return cases;
  },
  problems: unroutedProblems,
  held: unroutedHeld,
});

/** The update method a router may alias to the one a path documents. */
const UPDATE_SIBLING: Readonly<Record<string, string>> = { PATCH: 'PUT', PUT: 'PATCH' };

/** Each documented path with a method it does not document (and the other update method), and a value for each of its path parameters. */
function undocumentedMethods(t: CheckContext): Array<{ method: string; template: string; path: string }> {
  const byPath = new Map<string, Set<string>>();
  for (const op of t.spec.contract.operations) byPath.set(op.path, (byPath.get(op.path) ?? new Set()).add(op.method));
  return [...byPath].flatMap(([template, methods]) => {
    // GET where it is not documented; otherwise a write method with a body no server can parse,
    // so that even a server that wrongly accepts the method cannot change anything. Beside it, the
    // other update method where the path documents one (PUT beside PATCH, PATCH beside PUT): the
    // alias a router most often adds.
    const first = ['GET', 'DELETE', 'PATCH', 'PUT', 'POST'].find((m) => !methods.has(m));
    const sibling = [...methods].map((m) => UPDATE_SIBLING[m]).find((m) => m !== undefined && !methods.has(m));
    const ops = t.spec.contract.operations.filter((op) => op.path === template);
    const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const param = ops.flatMap((op) => op.parameters).find((p) => p.in === 'path' && p.name === name);
      return encodeURIComponent(String(param ? sample(t.spec, param.schema) : 'x'));
    });
    return [...new Set([first, sibling])].flatMap((method) => (method ? [{ method, template, path }] : []));
  });
}

rule({
  id: 'routing.wrong-method',
  title:
    'An undocumented method on a documented path gives 405 METHOD_NOT_ALLOWED, the other update method (PUT beside PATCH, PATCH beside PUT) too',
  source: 'API-wide catalogue code',
  precondition: 'a request the server must refuse: a method the path does not document',
  ...where,
  requests: async (t) => {
    const cases: Unrouted[] = [];
    for (const { method, template, path } of undocumentedMethods(t)) {
      const expected = expectedFromRoute(t, method, decodeURIComponent(path));
      const exchange = await t.send({
        method,
        path,
        ...(method === 'GET' ? {} : { rawBody: MALFORMED_BODY, unparseable: true }),
      });
      cases.push({ label: `${method} ${template}`, expected, exchange });
    }
    return cases;
  },
  problems: unroutedProblems,
  held: unroutedHeld,
});

/** A burst over a rate limit: the request it repeats, its answers, and which of them were refused. */
interface Burst {
  count: number;
  method: string;
  path: string;
  codes: ReadonlySet<string>;
  remaining: string;
  answers: Exchange[];
  limited: Exchange[];
}

/** More requests at once than twice the limit and five: some must meet the limit, whatever the window. */
const overLimit = (perSecond: number) => perSecond * 2 + 5;

async function sendBurst(t: CheckContext): Promise<Burst> {
  const op = t.spec.contract.operations.find((o) => o.method === 'GET' && o.parameters.every((p) => !p.required));
  if (!op) return t.skip('no read operation without required parameters');
  return burst(t, op, overLimit(t.spec.contract.limits.readRequestsPerSecond), { method: 'GET', path: op.path });
}

/**
 * A burst over the write limit, of the one write that changes nothing when repeated: the action
 * that leads a conversation to read (x-svc-transitions), on the first conversation listed. Its 429s
 * are answers like any other, read by every exchange check (retryable, the code, the headers).
 */
async function sendWriteBurst(t: CheckContext): Promise<Burst> {
  const op = t.op(WRITE_BURST_OP);
  const contact = need((await t.fixtures()).contacts[0], 'a conversation (GET /v2/api/conversations listed none)');
  const action = actionTo(t, 'read') ?? t.skip('no action leads to read (x-svc-transitions)');
  const path = encodePath(op, { contact_number: contact });
  const count = overLimit(t.spec.contract.limits.writeRequestsPerSecond);
  return burst(t, op, count, { method: op.method, path, body: { action } });
}

/** `count` copies of `request` sent at once, past the run's own pacing; then the window waited out. */
async function burst(t: CheckContext, op: Operation, count: number, request: ApiRequest): Promise<Burst> {
  // Each with its own X-Request-Id: a refusal is a response like any other, so it answers the id sent
  // ("If the client sends an X-Request-Id header, that value is used"), which response.request-id reads.
  const answers: Exchange[] = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      t.send({ ...request, requestId: `${t.config.runId}-burst-${i + 1}`, bypassRateLimit: true, noRetry: true }),
    ),
  );
  const limited = answers.filter((e) => e.status === 429);
  const codes = op.codesByStatus.get(429) ?? new Set<string>();
  const burst = {
    count,
    method: request.method,
    path: request.path,
    codes,
    remaining: t.spec.rateLimitHeaders.remaining,
  };
  // Leave the server's window as it was found before the next checks.
  const waits = limited.map((e) => errorOf(e)?.retry_after_seconds).filter(isWait);
  if (limited.length > 0)
    await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(1, ...waits), 60) * 1000));
  return { ...burst, answers, limited };
}

const isWait = (after: unknown): after is number => typeof after === 'number' && Number.isInteger(after) && after >= 0;

/** Each 429 carries a documented code and a retry_after_seconds. */
function refusalProblems({ codes, limited }: Burst): Problem[] {
  return limited.flatMap((e) => {
    const error = errorOf(e);
    const after = error?.retry_after_seconds;
    return [
      ...unless(
        typeof error?.code === 'string' && codes.has(error.code),
        `429 with code ${String(error?.code)}, not one of ${[...codes].join(', ')}`,
        e,
      ),
      ...unless(isWait(after), `429 without retry_after_seconds (got ${JSON.stringify(after)})`, e),
    ];
  });
}

/**
 * The headers move the way their names say: each admitted request used one of its window's
 * requests, so Remaining falls from one to the next, and a refused one sees 0. A burst may
 * straddle a window boundary (on a fixed-window server, at any machine speed), where one value
 * is seen once per window: so the admitted requests must not all see one value, rather than
 * see no value twice.
 */
function remainingProblems({ remaining, answers, limited }: Burst): Problem[] {
  const left = (e: Exchange) => Number(header(e, remaining));
  const admitted = answers.filter((e) => e.status >= 200 && e.status < 300 && Number.isFinite(left(e)));
  const distinct = new Set(admitted.map(left));
  const notZero = limited.find((e) => header(e, remaining) !== undefined && left(e) !== 0);
  return [
    ...unless(
      admitted.length < 2 || distinct.size > 1,
      `${remaining} does not fall from one admitted request to the next: ${admitted.length} admitted requests all saw ${[...distinct].join(', ')}`,
      admitted[1],
    ),
    ...unless(
      notZero === undefined,
      `a 429 says ${remaining} ${notZero ? header(notZero, remaining) : ''}, not 0`,
      notZero,
    ),
  ];
}

function burstProblems(burst: Burst): Problem[] {
  const { count, method, path, answers, limited } = burst;
  if (limited.length === 0)
    return [
      {
        message: `${count} simultaneous ${method} ${path}: no 429 (statuses ${[...new Set(answers.map((e) => e.status))].join(', ')})`,
      },
    ];
  return [...refusalProblems(burst), ...remainingProblems(burst)];
}

rule({
  id: 'rate-limit.burst',
  title:
    'A burst over the read limit gives 429 with retry_after_seconds; X-RateLimit-Remaining falls with each admitted request and is 0 on a 429',
  source: 'info.x-svc-limits + RateLimited response + RateLimitRemainingHeader',
  precondition: 'more reads in one second than the documented limit (opt-in: --burst)',
  ...where,
  needs: { burst: true },
  requests: sendBurst,
  problems: burstProblems,
  // Said once the burst met 429s, beside whatever the refusals got wrong.
  held: ({ count, limited }) => (limited.length > 0 ? [{ detail: `${limited.length} of ${count} answered 429` }] : []),
});

const WRITE_BURST_OP = 'applyConversationAction';

rule({
  id: 'rate-limit.write-burst',
  title:
    'A burst over the write limit gives 429 with retry_after_seconds; X-RateLimit-Remaining falls with each admitted write and is 0 on a 429',
  source: 'info.x-svc-limits (write_requests_per_second) + RateLimited response + RateLimitRemainingHeader',
  precondition:
    'more writes in one second than the documented limit: the action that leads a conversation to read, repeated (opt-in: --burst, with --allow-writes)',
  ...statefulWrite(WRITE_BURST_OP, 'burst'),
  needs: { burst: true, writes: true, stateful: true },
  requests: sendWriteBurst,
  problems: burstProblems,
  held: ({ count, limited }) => (limited.length > 0 ? [{ detail: `${limited.length} of ${count} answered 429` }] : []),
});
