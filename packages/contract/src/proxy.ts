// svc-contract proxy: a validating proxy. It relays any traffic (an integrator's own tests, a
// browser, curl) to an upstream server and checks every exchange against the contract: the
// response checks of a suite run (status, schema, headers, error code listed, type, retryable,
// request id, idempotency echo, pagination), and for a request the contract refuses (an unknown
// route, no key, a body that is not JSON, a value out of its limits) that the answer is the
// documented error. Prism's proxy validates responses too; this one also holds error answers to
// the catalogue. When it stops it builds the same report as a suite run.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiKeyOf, isObject, parseJsonBody } from '@svc/spec-runtime';
import { documentedCodes, type Expected, errorProblems } from './checks/expect.js';
import { bodyFormReading, withReadings } from './checks/readings.js';
import { type ApiRequest, type Exchange, errorCode, parseBody } from './http/exchange.js';
import { Recorder } from './http/recorder.js';
import type { TestRecord } from './model.js';
import { createRedactor, placeholderFor, type Redactor } from './redact.js';
import { loadSpec, type Spec } from './spec.js';
import { responseVerdict } from './verdict.js';

export interface ProxyOptions {
  upstream: string;
  /** Default 0: a free port. */
  port?: number;
  host?: string;
  timeoutMs?: number;
  /** One line per exchange (already redacted). */
  progress?: (line: string) => void;
}

export interface RunningProxy {
  url: string;
  /** Every exchange so far, as the suite's test records. */
  records(): TestRecord[];
  redact: Redactor;
  close(): Promise<void>;
}

const HOP = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'proxy-connection',
]);
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const KEY_PLACEHOLDER = placeholderFor('api-key', 'SVC_API_KEY');

async function readBody(req: IncomingMessage): Promise<Uint8Array | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Read to the end whatever the size, so the client is not cut off mid-request; keep at most the cap.
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size <= MAX_BODY_BYTES) chunks.push(c);
  }
  return size > MAX_BODY_BYTES ? 'too-large' : new Uint8Array(Buffer.concat(chunks));
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
  url: URL,
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
      expected: { status: 401, codes: documentedCodes(spec, op, 401), why: 'no Authorization: Api-Key <key>' },
      authFirst: false,
    };
  let body: unknown;
  const hasBody = bytes === 'too-large' || bytes.byteLength > 0;
  if (op.requestBody || hasBody) {
    const parsed = parseJsonBody(bytes, headers.get('content-type'), op.requestBody?.required ?? false);
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

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const spec = loadSpec();
  const upstream = options.upstream.replace(/\/+$/, '');
  const keys = new Set<string>();
  const redact: Redactor = (text) =>
    createRedactor([...keys].map((value) => ({ value, placeholder: KEY_PLACEHOLDER })))(text);
  // Relayed requests carry their own Authorization header (auth kind 'header') or none: no run key.
  const recorder = new Recorder(spec, redact, '');
  const records: TestRecord[] = [];
  let seq = 0;

  const server: Server = createServer(async (req, res) => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (!HOP.has(name) && value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    const key = apiKeyOf(headers.get('authorization'));
    if (key) keys.add(key);
    let bytes: Uint8Array | 'too-large';
    try {
      bytes = await readBody(req);
    } catch {
      res.destroy();
      return;
    }
    const target = `${upstream}${url.pathname}${url.search}`;
    const request: ApiRequest = {
      method,
      path: url.pathname,
      ...(url.search ? { query: Object.fromEntries(url.searchParams) } : {}),
      ...(bytes !== 'too-large' && bytes.byteLength > 0 ? { rawBody: new TextDecoder().decode(bytes) } : {}),
      ...(headers.get('content-type') ? { contentType: headers.get('content-type') as string } : {}),
      auth: headers.has('authorization')
        ? { kind: 'header', value: headers.get('authorization') as string }
        : { kind: 'none' },
      ...(headers.has(spec.requestIdHeader) ? { requestId: headers.get(spec.requestIdHeader) as string } : {}),
      ...(headers.has(spec.idempotencyKeyHeader)
        ? { idempotencyKey: headers.get(spec.idempotencyKeyHeader) as string }
        : {}),
    };
    const expectation = expectationFor(spec, method, url, headers, bytes);
    const match = spec.contract.matchRoute(method, url.pathname);
    const operation = 'operation' in match ? match.operation : null;
    let exchange: Exchange;
    try {
      const response = await fetch(target, {
        method,
        headers,
        ...(bytes !== 'too-large' && bytes.byteLength > 0 ? { body: bytes as unknown as BodyInit } : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
      const text = await response.text();
      const out: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (!HOP.has(name) && name !== 'content-encoding') out[name] = value;
      });
      res.writeHead(response.status, out);
      res.end(text);
      exchange = {
        seq: ++seq,
        request,
        url: target,
        operation,
        status: response.status,
        headers: response.headers,
        text,
        body: parseBody(text),
        durationMs: Math.round(performance.now() - started),
        sentAt: started,
        receivedAt: performance.now(),
      };
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`svc-contract proxy: the upstream did not answer: ${(error as Error).message}`);
      exchange = {
        seq: ++seq,
        request,
        url: target,
        operation,
        status: 0,
        headers: new Headers(),
        text: '',
        body: undefined,
        durationMs: Math.round(performance.now() - started),
        error: (error as Error).message,
      };
    }
    recorder.record(exchange);
    const operationId = operation?.operationId ?? '(api-wide)';
    if (expectation && exchange.error === undefined) {
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
      recorder.add(
        responseVerdict(
          'proxy.refusal',
          operationId,
          exchange.seq,
          problems.map((p) => `${method} ${url.pathname}: ${p}`),
        ),
      );
    }
    const record = recorder.drain();
    records.push(record);
    if (options.progress) {
      const failed = [...new Set(record.outcomes.filter((o) => o.status === 'failed').map((o) => o.check))];
      options.progress(
        redact(
          `  ${failed.length ? '✘' : '✔'} ${method} ${url.pathname} → ${exchange.status || exchange.error} ${operation?.operationId ?? ''}${failed.length ? `  ${failed.join(', ')}` : ''}`,
        ),
      );
    }
  });
  await once(server.listen(options.port ?? 0, options.host ?? '127.0.0.1'), 'listening');
  const { port, address } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    records: () => [...records],
    redact,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
