// svc-contract proxy: a validating proxy. It relays any traffic (an integrator's own tests, a
// browser, curl) to an upstream server, byte for byte (http/relay.ts), and checks every exchange
// against the contract: the response checks of a suite run (status, schema, headers, error code
// listed, type, retryable, request id, idempotency echo, pagination), and for a request the
// contract refuses (an unknown route, no key, a body that is not JSON, a value out of its limits)
// that the answer is the documented error. Prism's proxy validates responses too; this one also
// holds error answers to the catalogue. What it keeps is bounded by bytes: bodies up to
// --max-response-bytes for checking, results folded into a tally (proxy-tally.ts), keys in a
// bounded set. When it stops it builds the same report as a suite run.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiKeyOf, isObject, parseJsonBody } from '@svc/spec-runtime';
import { describeCheck } from './check-descriptions.js';
import { documentedCodes, type Expected, errorProblems } from './expectations/expect.js';
import { bodyFormReading, withReadings } from './expectations/readings.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './http/bounded-fetch.js';
import { type ApiRequest, type Exchange, errorCode, parseBody } from './http/exchange.js';
import { KeptBudget } from './http/kept-bytes.js';
import { type Relayed, relay } from './http/relay.js';
import { ProxyTally } from './proxy-tally.js';
import { Recorder } from './recorder.js';
import { placeholderFor, type Redactor, SeenKeys } from './redact.js';
import { serverUrlProblem } from './server-url.js';
import { loadSpec, type Spec } from './spec.js';
import { UsageError } from './tool.js';
import type { TestRecord } from './types.js';
import { responseVerdict, uncheckedSkip } from './verdict.js';

// The proxy's own checks: requests an integrator sends, wrong on purpose or not.
describeCheck({
  id: 'proxy.refusal',
  title:
    'A request the contract refuses (unknown route, no key, a body that is not JSON, a value outside its limits) gets the documented error',
  source: 'route matching, security, request body, parameter and body schemas + x-svc-error-code',
  precondition: 'a request relayed by the proxy that the contract refuses',
});
describeCheck({
  id: 'proxy.unchecked-too-large',
  title:
    'A response larger than --max-response-bytes (after decompression), or arriving while the proxy holds 4 × that for other checks, is relayed whole and left unchecked (a skip by option, not a failure)',
  source: '--max-response-bytes',
  precondition: 'an answer relayed by the proxy over --max-response-bytes, or while it holds 4 × that',
});

export interface ProxyOptions {
  upstream: string;
  /** Default 0: a free port. */
  port?: number;
  host?: string;
  timeoutMs?: number;
  /** Most bytes of a response kept for checking, after decompression (default as a run: 10 MiB). */
  maxResponseBytes?: number;
  /** One line per exchange (already redacted). */
  progress?: (line: string) => void;
  /** Told each exchange's record once it is checked and tallied (tests await it). */
  onChecked?: (record: TestRecord) => void;
}

export interface RunningProxy {
  url: string;
  /** Every exchange so far, folded into one bounded record (see ProxyTally). */
  records(): TestRecord[];
  redact: Redactor;
  /** Exchanges whose client left before the answer ended (not checked). */
  readonly clientsGone: number;
  close(): Promise<void>;
}

/** Bodies kept for checking by all exchanges at once, in caps (--max-response-bytes): 40 MiB by default. */
export const KEPT_BUDGET_CAPS = 4;

/** Request body characters kept in a report (as response bodies are cut). */
const MAX_BODY_CHARS = 4000;

/** A request body as the report shows it: its first characters, never the whole of a large one. */
function bodyText(bytes: Uint8Array | 'too-large', cap: number): string | undefined {
  if (bytes === 'too-large') return `(a body of more than ${cap} bytes, not kept)`;
  if (bytes.byteLength === 0) return undefined;
  const text = new TextDecoder().decode(bytes.subarray(0, MAX_BODY_CHARS));
  return bytes.byteLength > MAX_BODY_CHARS ? `${text}… (${bytes.byteLength} bytes)` : text;
}

const withStatus = (spec: Spec, code: string, why: string): Expected | undefined => {
  const status = spec.contract.catalogue.get(code)?.status;
  return status === undefined ? undefined : { status, codes: [code], why };
};

/**
 * What the contract says a request must get, where it refuses it: undefined for a request it
 * accepts (then any documented answer will do). `authFirst`: a 401, 403 or 429 the operation
 * lists is acceptable instead, since the key (or the rate) may be decided before the request.
 */
export function expectationFor(
  spec: Spec,
  method: string,
  url: Pick<URL, 'pathname' | 'searchParams'>,
  headers: Headers,
  bytes: Uint8Array | 'too-large',
): { expected: Expected; authFirst: boolean } | undefined {
  const match = spec.contract.matchRoute(method, url.pathname);
  const authorized = apiKeyOf(headers.get('authorization')) !== undefined;
  if ('error' in match) {
    const expected = withStatus(spec, match.error, `${method} ${url.pathname} is not an operation of the contract`);
    return expected ? { expected, authFirst: !authorized } : undefined;
  }
  const op = match.operation;
  if (!authorized && op.security.length > 0)
    return {
      expected: { status: 401, codes: documentedCodes(spec, op, 401), why: 'no Authorization header' },
      authFirst: false,
    };
  let body: unknown;
  const hasBody = bytes === 'too-large' || bytes.byteLength > 0;
  if (op.requestBody || hasBody) {
    const parsed = parseJsonBody(bytes, headers.get('content-type'), op.requestBody?.required ?? false);
    // A body past what the proxy keeps is not read: the contract states no size limit, so only
    // its Content-Type can be held against it.
    if (bytes === 'too-large' && (parsed.ok || parsed.code !== 'UNSUPPORTED_MEDIA_TYPE')) return undefined;
    if (!parsed.ok) {
      const expected = withStatus(spec, parsed.code, parsed.message);
      return expected ? { expected, authFirst: true } : undefined;
    }
    body = parsed.value;
  }
  const violations = spec.contract.validateRequest(op, {
    params: match.params,
    query: url.searchParams,
    headers,
    body,
  });
  if (violations.length === 0) return undefined;
  const choice = spec.contract.errorFor(violations, op);
  const expected = { status: choice.status, codes: [choice.code], why: violations.map((v) => v.message).join('; ') };
  // A body form the contract leaves open (x-svc-ambiguity body-form): the other form's refusal passes too.
  const fields = isObject(body) ? Object.keys(body) : [];
  const other = bodyFormReading(spec, op, { params: match.params, body }, fields);
  return { expected: withReadings(expected, other ? [other] : []), authFirst: true };
}

/** The exchange as the checks see it. */
function exchangeOf(
  spec: Spec,
  relayed: Relayed,
  method: string,
  upstream: string,
  seq: number,
  cap: number,
): Exchange {
  const headers = relayed.requestHeaders;
  const [pathname = '', search = ''] = splitTarget(relayed.target);
  const match = spec.contract.matchRoute(method, pathname);
  const rawBody = bodyText(relayed.requestBody, cap);
  const request: ApiRequest = {
    method,
    path: pathname,
    ...(search ? { query: Object.fromEntries(new URLSearchParams(search)) } : {}),
    ...(rawBody !== undefined ? { rawBody } : {}),
    ...(headers.get('content-type') ? { contentType: headers.get('content-type') as string } : {}),
    auth: headers.has('authorization')
      ? { kind: 'header', value: headers.get('authorization') as string }
      : { kind: 'none' },
    ...(headers.has(spec.requestIdHeader) ? { requestId: headers.get(spec.requestIdHeader) as string } : {}),
    ...(headers.has(spec.idempotencyKeyHeader)
      ? { idempotencyKey: headers.get(spec.idempotencyKeyHeader) as string }
      : {}),
  };
  const text = relayed.body === 'too-large' ? '' : new TextDecoder().decode(relayed.body);
  const common = {
    seq,
    request,
    url: `${upstream}${relayed.target}`,
    operation: 'operation' in match ? match.operation : null,
    durationMs: relayed.durationMs,
    sentAt: relayed.sentAt,
    ...(relayed.receivedAt !== undefined ? { receivedAt: relayed.receivedAt } : {}),
  };
  if (relayed.failure)
    return {
      ...common,
      status: 0,
      headers: new Headers(),
      text: '',
      body: undefined,
      error: relayed.failure.message,
      failure: relayed.failure.kind,
    };
  return { ...common, status: relayed.status, headers: relayed.headers, text, body: parseBody(text) };
}

/** The path and the query of a request target, as the server reads them (no normalisation). */
function splitTarget(target: string): [string, string] {
  const at = target.indexOf('?');
  return at < 0 ? [target, ''] : [target.slice(0, at), target.slice(at + 1)];
}

/** proxy.refusal on one exchange: the documented error, or a 401, 403 or 429 the key may have been refused with first. */
function refusalProblems(
  spec: Spec,
  exchange: Exchange,
  expectation: { expected: Expected; authFirst: boolean },
): string[] {
  const { operation } = exchange;
  const code = errorCode(exchange);
  // Off any route, the key may still be checked first: any 401 of the catalogue will do there.
  const listed = (status: number) =>
    operation
      ? documentedCodes(spec, operation, status)
      : [...spec.contract.catalogue.values()].filter((e) => e.status === 401).map((e) => e.code);
  const keyDecided =
    expectation.authFirst &&
    [401, 403, 429].includes(exchange.status) &&
    code !== undefined &&
    listed(exchange.status).includes(code);
  const problems = keyDecided ? [] : errorProblems(exchange, expectation.expected);
  const where = `${exchange.request.method} ${exchange.request.path}`;
  return problems.map((p) => `${where}: ${p}`);
}

/** One line per exchange: what was asked, what came back, the checks that failed. */
function progressLine(record: TestRecord, exchange: Exchange): string {
  const failed = [...new Set(record.outcomes.filter((o) => o.status === 'failed').map((o) => o.check))];
  const { method, path } = exchange.request;
  const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  return `  ${failed.length ? '✘' : '✔'} ${method} ${shown} → ${exchange.status || exchange.error} ${exchange.operation?.operationId ?? ''}${failed.length ? `  ${failed.join(', ')}` : ''}`;
}

/** Checks each relayed exchange against the contract, records its outcomes and tells the caller. */
function exchangeChecker(spec: Spec, options: ProxyOptions, keys: SeenKeys, maxResponseBytes: number) {
  const upstreamText = options.upstream.replace(/\/+$/, '');
  // Relayed requests carry their own Authorization header (auth kind 'header') or none: no run key.
  const recorder = new Recorder(spec, keys.redact, '');
  const tally = new ProxyTally();
  const unchecked = `the response is larger than ${maxResponseBytes} bytes after decompression (--max-response-bytes): relayed whole, not checked`;
  const busy = `the response came while other exchanges held the proxy's memory for checking (${KEPT_BUDGET_CAPS} × --max-response-bytes at once): relayed whole, not checked`;
  let seq = 0;

  const check = (req: IncomingMessage, relayed: Relayed) => {
    const method = req.method ?? 'GET';
    const key = apiKeyOf(relayed.requestHeaders.get('authorization'));
    if (key) keys.remember(key);
    const exchange = exchangeOf(spec, relayed, method, upstreamText, ++seq, maxResponseBytes);
    const operationId = exchange.operation?.operationId ?? '(api-wide)';
    if (relayed.body === 'too-large' && !relayed.failure) {
      recorder.recordUnchecked(
        exchange,
        uncheckedSkip('proxy.unchecked-too-large', operationId, relayed.overBudget ? busy : unchecked),
      );
    } else {
      recorder.record(exchange);
      const [pathname = '', search = ''] = splitTarget(relayed.target);
      const target = { pathname, searchParams: new URLSearchParams(search) };
      const expectation = expectationFor(spec, method, target, relayed.requestHeaders, relayed.requestBody);
      if (expectation && exchange.error === undefined)
        recorder.add(
          responseVerdict('proxy.refusal', operationId, exchange.seq, refusalProblems(spec, exchange, expectation)),
        );
    }
    const record = recorder.drain();
    tally.add(record);
    options.onChecked?.(record);
    if (options.progress) options.progress(keys.redact(progressLine(record, exchange)));
  };
  return { check, tally };
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  // The same rule as the CLI's --upstream: no credentials in the URL, and none echoed.
  const upstreamProblem = serverUrlProblem('upstream', options.upstream);
  if (upstreamProblem) throw new UsageError(upstreamProblem);
  const spec = loadSpec();
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const relayOptions = {
    upstream: new URL(options.upstream),
    timeoutMs: options.timeoutMs ?? 30_000,
    maxResponseBytes,
    maxRequestBytes: maxResponseBytes,
    budget: new KeptBudget(KEPT_BUDGET_CAPS * maxResponseBytes),
  };
  const keys = new SeenKeys(placeholderFor('api-key', 'SVC_API_KEY'));
  const { check, tally } = exchangeChecker(spec, options, keys, maxResponseBytes);
  let clientsGone = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const relayed = await relay(req, res, relayOptions);
      if (relayed.clientGone) clientsGone++;
      else check(req, relayed);
    } catch (error) {
      // A bug here must not take the proxy (and every other client's exchange) down.
      res.destroy();
      options.progress?.(
        keys.redact(`  svc-contract proxy: an exchange could not be checked: ${(error as Error).message}`),
      );
    }
  };
  const server: Server = createServer((req, res) => void handle(req, res));
  // A client that half-closes once its request is sent (nc, some scripts) still gets its answer:
  // node:http's default ends such a socket at once, which would read as a hang-up here.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  await once(server.listen(options.port ?? 0, options.host ?? '127.0.0.1'), 'listening');
  const { port, address } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    records: () => [tally.record()],
    redact: keys.redact,
    get clientsGone() {
      return clientsGone;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
