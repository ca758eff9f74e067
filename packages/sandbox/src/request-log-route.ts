// GET /__sandbox/requests/<request_id>: what the sandbox received and answered for a request id,
// from its request log (request-log.ts), redacted (the key's name, never the key). Guarded as the
// reset route is (the kernel's own-route steps for a route that acts): a sandbox key on a paid
// plan, the sandbox's own Host and Origin, counted against the key's rate limit; a GET reads no
// body, so it needs no Content-Type. An id the log does not hold (never seen, or gone past its
// bounds) is 404 ENDPOINT_NOT_FOUND, saying which.
import type { Outcome, OwnRoute } from '@svc/server-kernel';
import { REQUESTS_PATH } from '@svc/spec-runtime/sandbox-config';
import type { LoggedExchange, LoggedMessage, RequestLog } from './request-log.js';
import type { SandboxKey } from './store/store.js';

export { REQUESTS_PATH };

/** The route and command a user can look a request id up with (error suggestions, docs). */
export function lookupSuggestion(requestId: string): string {
  return `To see this request and the sandbox's answer as it logged them: GET ${REQUESTS_PATH}/${encodeURIComponent(requestId)} with your sandbox key, or watch every exchange with svc-sandbox logs tail.`;
}

/** A body as served: its JSON when kept whole and JSON, else the text kept and how much was cut. */
function servedBody(message: LoggedMessage): Record<string, unknown> {
  if (message.body === undefined)
    return message.bodyOmitted === undefined ? { body: null } : { body: null, body_omitted: message.bodyOmitted };
  const text = message.body;
  const whole = message.whole;
  if (whole) {
    try {
      return { body: JSON.parse(text) };
    } catch {
      // Not JSON (a malformed body the sandbox refused): served as the text it was.
    }
  }
  return { body: null, body_text: text, body_bytes: message.bodyBytes, body_truncated: !whole };
}

/** The log's entry as the route serves it. */
export function servedExchange(exchange: LoggedExchange): Record<string, unknown> {
  const { request, response } = exchange;
  return {
    request_id: exchange.requestId,
    received_at: exchange.at,
    operation: exchange.operation ?? null,
    key_name: exchange.keyName ?? null,
    request: { method: request.method, path: request.path, headers: request.headers, ...servedBody(request) },
    response: {
      status: response.status,
      error_code: response.errorCode ?? null,
      headers: response.headers,
      ...servedBody(response),
    },
  };
}

function lookUp(log: RequestLog, url: string): Outcome {
  const { pathname } = new URL(url);
  let requestId: string;
  try {
    requestId = decodeURIComponent(pathname.slice(REQUESTS_PATH.length + 1));
  } catch {
    requestId = pathname.slice(REQUESTS_PATH.length + 1);
  }
  const exchange = log.find(requestId);
  if (exchange !== undefined) return { status: 200, body: { data: servedExchange(exchange) } };
  const { maxEntries, maxBytes } = log.limits;
  return {
    error: 'ENDPOINT_NOT_FOUND',
    message: `The sandbox's request log holds no request ${JSON.stringify(requestId.slice(0, 64))}: it keeps the last ${maxEntries} exchanges within ${maxBytes / (1024 * 1024)} MiB since it started, and nothing across a restart.`,
  };
}

export function requestLogRoute(log: RequestLog): OwnRoute<SandboxKey> {
  return {
    method: 'GET',
    path: REQUESTS_PATH,
    segment: true,
    acts: true,
    answer: ({ request }) => lookUp(log, request.url),
  };
}
