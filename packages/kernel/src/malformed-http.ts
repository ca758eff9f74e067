// Malformed HTTP gets the documented error body, not Node's bare 400, 431 or 408 without one:
// 400 INVALID_REQUEST_BODY (the closest documented code: the request could not be read), a fresh
// request_id, the rate-limit headers every response carries, and no detail beyond the parser's
// error code (never the bytes received, never a stack trace). Two kinds reach here: what Node's
// parser refuses (bad header bytes, two Content-Lengths, headers or a URL over the limit, a
// request that never finishes arriving: its `clientError` event, answered on the raw socket),
// and a parsed HTTP/1.1 request without exactly one Host header (RFC 9112 3.2: answered 400).
import type { IncomingMessage } from 'node:http';
import { type Contract, generateRequestId, serverHeaderNames } from '@svc/spec-runtime';

/** What a socket must offer to carry the answer (node:net's Socket does). */
export interface ClientErrorSocket {
  readonly writable: boolean;
  end(data: string): void;
  destroy(): void;
}

const CODE = 'INVALID_REQUEST_BODY';

function messageFor(errorCode: string | undefined): string {
  if (errorCode === 'HPE_HEADER_OVERFLOW') return 'The request line or headers are larger than this server accepts.';
  if (errorCode === 'ERR_HTTP_REQUEST_TIMEOUT' || errorCode === 'ERR_HTTP_HEADERS_TIMEOUT')
    return 'The request did not arrive completely in time.';
  // llhttp's codes are fixed tokens (HPE_INVALID_HEADER_TOKEN, HPE_UNEXPECTED_CONTENT_LENGTH, ...).
  const named = errorCode !== undefined && /^[A-Z_]{1,40}$/.test(errorCode) ? ` (${errorCode})` : '';
  return `The request is not valid HTTP${named}.`;
}

/** The documented answer to a request that cannot be served: status, headers (closing the connection), body. */
export function malformedAnswer(
  contract: Contract,
  message: string,
): { status: number; headers: Record<string, string>; body: string } {
  const requestId = generateRequestId();
  const built = contract.buildError(CODE, { requestId, message });
  const body = JSON.stringify(built.body);
  const limit = String(contract.limits.readRequestsPerSecond);
  const names = serverHeaderNames(contract);
  // The request was never counted against a key: the read budget is reported as it stands.
  const headers = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    [names.requestId]: requestId,
    [names.rateLimitLimit]: limit,
    [names.rateLimitRemaining]: limit,
    [names.rateLimitReset]: '1',
  };
  return { status: built.status, headers, body };
}

/** The whole HTTP/1.1 response (status line, headers, body) for a request Node could not parse. */
export function clientErrorResponse(contract: Contract, errorCode: string | undefined): string {
  const { headers, body } = malformedAnswer(contract, messageFor(errorCode));
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 400 Bad Request\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Whether the socket can still carry an answer: not reset by the client, not answered already. */
export function canAnswerClientError(
  error: { code?: string } | undefined,
  socket: Pick<ClientErrorSocket, 'writable'>,
): boolean {
  return error?.code !== 'ECONNRESET' && socket.writable;
}

/** The `clientError` answer: sent when the socket can still carry it, else the socket is closed. */
export function answerClientError(
  contract: Contract,
  error: { code?: string } | undefined,
  socket: ClientErrorSocket,
): void {
  if (canAnswerClientError(error, socket)) socket.end(clientErrorResponse(contract, error?.code));
  else socket.destroy();
}

/** Why an HTTP/1.1 request's Host header is not exactly one (undefined when it is, or for HTTP/1.0). */
export function hostProblem(incoming: Pick<IncomingMessage, 'httpVersion' | 'rawHeaders'>): string | undefined {
  let hosts = 0;
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') hosts++;
  if (hosts === 1 || (hosts === 0 && incoming.httpVersion === '1.0')) return undefined;
  return hosts === 0
    ? 'The request has no Host header: HTTP/1.1 requires exactly one.'
    : 'The request has more than one Host header: HTTP/1.1 requires exactly one.';
}
