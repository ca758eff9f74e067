// A small, real HTTP server in the API's dialect that injects faults on demand. It records every
// request as it arrived on the wire, honours Idempotency-Key like the service does (a 2xx is
// stored and replayed with `Idempotency-Replayed: true`, the write is not applied again), and can
// enforce a sliding one-second rate limit, counting the 429s it gives.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the server saw it. `path` is the raw request target, percent-encoding included. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** performance.now() at arrival. */
  at: number;
}

/** What the server does instead of answering normally, once per matching request. */
export type Fault =
  /** Answer with this status and body (an error body is `{ error: { … } }`). */
  | { kind: 'respond'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Apply the write and store its response under its Idempotency-Key, then destroy the socket unanswered. */
  | { kind: 'drop-after-commit' }
  /** Never answer (the client's timeout or abort has to end it). */
  | { kind: 'hang' };

export interface FaultServerOptions {
  apiKey: string;
  /** Enforce a limit per class over any sliding one-second window (off when absent). */
  rateLimit?: { readsPerSecond: number; writesPerSecond: number };
  /**
   * The rate limiter's clock in milliseconds (default performance.now). A frozen clock puts every
   * arrival in the same window, so what the limiter refuses no longer depends on machine speed.
   */
  rateLimitClock?: () => number;
  /** How many conversations GET /v2/api/conversations lists (default 0). */
  conversations?: number;
  /** How many custom fields GET /v2/api/crm/attributes lists (default 0). */
  customFields?: number;
}

export interface FaultServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Writes the server actually executed (replays excluded), in order. */
  readonly appliedWrites: Array<{ method: string; path: string; idempotencyKey: string | undefined }>;
  /** 429s the server's own rate limiter gave. */
  readonly rateLimited: number;
  /** Requests whose client went away before any answer (a hang ended by a timeout or abort). */
  readonly abandoned: number;
  /** Queues faults for the next requests with this method whose path (without query) starts with `pathPrefix`. */
  inject(method: string, pathPrefix: string, ...faults: Fault[]): void;
  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number): Promise<void>;
  /** Resolves once `count` requests have been abandoned by their clients. */
  waitForAbandoned(count: number): Promise<void>;
  close(): Promise<void>;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function requestIdOf(headers: IncomingHttpHeaders): string {
  const sent = headers['x-request-id'];
  if (typeof sent === 'string' && sent) return sent;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return `req_${Array.from({ length: 12 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('')}`;
}

/** An error body in the API's dialect. */
export function errorBody(
  status: number,
  type: string,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
) {
  return {
    status,
    body: {
      // request_id is filled in when the body is sent.
      error: {
        type,
        code,
        message,
        retryable: status === 429 || status >= 500,
        doc_url: `https://docs.example.com/errors/${code}`,
        ...extra,
      } as Record<string, unknown>,
    },
  };
}

export async function startFaultServer(options: FaultServerOptions): Promise<FaultServer> {
  const requests: RecordedRequest[] = [];
  const appliedWrites: FaultServer['appliedWrites'] = [];
  const faults: Array<{ method: string; pathPrefix: string; fault: Fault }> = [];
  const stored = new Map<string, { method: string; path: string; status: number; body: unknown }>();
  const arrivals = { read: [] as number[], write: [] as number[] };
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const threads = new Map<string, unknown>();
  let rateLimited = 0;
  let abandoned = 0;
  const abandonWaiters: Array<{ count: number; resolve: () => void }> = [];

  const conversations = Array.from({ length: options.conversations ?? 0 }, (_, index) => ({
    contact_number: `+1415555${String(index).padStart(4, '0')}`,
    contacts: [],
    last_activity: '2026-03-01T10:15:00Z',
    last_item: { id: `cll-${index}`, type: 'CALL' },
  }));
  const customFields = Array.from({ length: options.customFields ?? 0 }, (_, index) => ({
    key: `field_${index}`,
    label: `Field ${index}`,
    type: 'TEXT',
  }));

  function send(
    res: ServerResponse,
    requestId: string,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    // Every error carries the request id of its response, as on the service.
    const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
    if (error) error.request_id = requestId;
    res.writeHead(status, { 'Content-Type': 'application/json', 'X-Request-Id': requestId, ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  }

  function page<T>(items: T[], url: URL) {
    const pageNumber = Number(url.searchParams.get('page') ?? 1);
    const size = Number(url.searchParams.get('size') ?? 20);
    const data = items.slice((pageNumber - 1) * size, pageNumber * size);
    const totalPages = Math.ceil(items.length / size);
    return {
      data,
      pagination: {
        page: pageNumber,
        size,
        total_count: items.length,
        total_pages: totalPages,
        has_more: pageNumber < totalPages,
      },
    };
  }

  /** The normal behaviour: a handful of the contract's operations. */
  function route(method: string, url: URL, body: unknown): { status: number; body: unknown } {
    const path = url.pathname;
    if (method === 'GET' && path === '/v2/api/conversations') return { status: 200, body: page(conversations, url) };
    if (method === 'GET' && path === '/v2/api/crm/attributes') return { status: 200, body: page(customFields, url) };
    if (method === 'POST' && path === '/v2/api/threads') {
      const input = body as { content: string; entity_type: string; entity_id: string };
      const thread = {
        id: `cth-${threads.size + 1}`,
        entity_type: input.entity_type,
        entity_id: input.entity_id,
        contact_number: '+14155550123',
        resolved: false,
        resolved_at: null,
        resolved_by: null,
        comment_count: 0,
        created_at: '2026-03-01T10:15:00Z',
        comments: [],
      };
      threads.set(thread.id, thread);
      return { status: 201, body: { data: thread } };
    }
    const threadMatch = /^\/v2\/api\/threads\/([^/]+)$/.exec(path);
    if (method === 'GET' && threadMatch) {
      const thread = threads.get(decodeURIComponent(threadMatch[1] ?? ''));
      return thread
        ? { status: 200, body: { data: thread } }
        : errorBody(404, 'not_found_error', 'THREAD_NOT_FOUND', `No thread with id ${threadMatch[1]}.`);
    }
    const actionMatch = /^\/v2\/api\/conversations\/([^/]+)\/action$/.exec(path);
    if (method === 'PUT' && actionMatch) {
      return {
        status: 200,
        body: { data: { contact_number: decodeURIComponent(actionMatch[1] ?? ''), ...(body as object) } },
      };
    }
    return errorBody(404, 'not_found_error', 'ENDPOINT_NOT_FOUND', `No endpoint at ${method} ${path}.`);
  }

  /** Sliding window: no more than the limit of arrivals in any one-second span. */
  function overRateLimit(method: string, now: number): boolean {
    if (!options.rateLimit) return false;
    const write = WRITE_METHODS.has(method);
    const window = write ? arrivals.write : arrivals.read;
    const limit = write ? options.rateLimit.writesPerSecond : options.rateLimit.readsPerSecond;
    while (window.length > 0 && (window[0] ?? 0) <= now - 1000) window.shift();
    if (window.length >= limit) return true;
    window.push(now);
    return false;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const at = performance.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const method = req.method ?? 'GET';
    const rawPath = req.url ?? '/';
    const body: unknown = text ? JSON.parse(text) : undefined;
    requests.push({ method, path: rawPath, headers: req.headers, body, at });
    for (const waiter of waiters.filter((w) => requests.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    const url = new URL(rawPath, 'http://localhost');
    const requestId = requestIdOf(req.headers);
    const idempotencyKey =
      typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
    const echo: Record<string, string> = idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {};

    if (overRateLimit(method, options.rateLimitClock?.() ?? at)) {
      rateLimited++;
      const limited = errorBody(429, 'rate_limit_error', 'RATE_LIMIT_EXCEEDED', 'Rate limit exceeded.', {
        retry_after_seconds: 1,
      });
      return send(res, requestId, limited.status, limited.body, { ...echo, 'X-RateLimit-Reset': '1' });
    }

    const faultIndex = faults.findIndex((f) => f.method === method && url.pathname.startsWith(f.pathPrefix));
    const fault = faultIndex >= 0 ? faults.splice(faultIndex, 1)[0]?.fault : undefined;
    if (fault?.kind === 'hang') {
      const abandon = () => {
        abandoned++;
        for (const waiter of abandonWaiters.filter((w) => abandoned >= w.count)) {
          abandonWaiters.splice(abandonWaiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      };
      // On a loaded machine the client's timeout can fire while the body is still being read
      // above: the connection is then gone before this line, and 'close' will not come again.
      if (res.closed || req.socket.destroyed) abandon();
      else res.once('close', () => res.writableEnded || abandon());
      return;
    }
    if (fault?.kind === 'respond') {
      return send(res, requestId, fault.status, fault.body, { ...echo, ...fault.headers });
    }

    const authorization = req.headers.authorization;
    if (authorization !== `Api-Key ${options.apiKey}`) {
      // Like the service, the message includes the failing value: here, the key itself.
      const denied = errorBody(
        401,
        'authentication_error',
        'API_KEY_INVALID',
        `The API key ${authorization ?? '(none)'} is invalid.`,
      );
      return send(res, requestId, denied.status, denied.body, echo);
    }

    const write = WRITE_METHODS.has(method);
    if (write && idempotencyKey) {
      const previous = stored.get(idempotencyKey);
      if (previous && (previous.method !== method || previous.path !== url.pathname)) {
        const reuse = errorBody(
          409,
          'conflict_error',
          'IDEMPOTENCY_KEY_REUSE',
          'Key used for a different endpoint or method.',
        );
        return send(res, requestId, reuse.status, reuse.body, echo);
      }
      if (previous)
        return send(res, requestId, previous.status, previous.body, { ...echo, 'Idempotency-Replayed': 'true' });
    }

    const outcome = route(method, url, body);
    if (write && outcome.status < 300) {
      appliedWrites.push({ method, path: url.pathname, idempotencyKey });
      if (idempotencyKey) stored.set(idempotencyKey, { method, path: url.pathname, ...outcome });
    }
    if (fault?.kind === 'drop-after-commit') {
      // The write is committed and stored; the client never hears about it.
      req.socket.destroy();
      return;
    }
    send(res, requestId, outcome.status, outcome.body, echo);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    appliedWrites,
    get rateLimited() {
      return rateLimited;
    },
    get abandoned() {
      return abandoned;
    },
    inject(method, pathPrefix, ...list) {
      for (const fault of list) faults.push({ method, pathPrefix, fault });
    },
    waitForRequests(count) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    waitForAbandoned(count) {
      if (abandoned >= count) return Promise.resolve();
      return new Promise((resolve) => abandonWaiters.push({ count, resolve }));
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
