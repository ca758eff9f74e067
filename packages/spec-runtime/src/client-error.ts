// Malformed HTTP (bad header bytes, two Content-Lengths, headers or a URL over the server's
// limit, a request that never finishes arriving) never reaches a request handler: Node answers it
// itself with a bare 400, 431 or 408 and no body. Servers of this repository hook Node's
// `clientError` event and answer with the documented error body instead, wherever HTTP still
// allows an answer: 400 INVALID_REQUEST_BODY (the closest documented code: the request could not
// be read), a fresh request_id, the rate-limit headers every response carries, and no detail
// beyond the parser's error code (never the bytes received, never a stack trace).
import type { Contract } from './contract.js';
import { generateRequestId } from './request-id.js';
import { serverHeaderNames } from './server-headers.js';

/** What a socket must offer (node:net's Socket does); structural so this module stays web-standard. */
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

/** The whole HTTP/1.1 response (status line, headers, body) for a request Node could not parse. */
export function clientErrorResponse(contract: Contract, errorCode: string | undefined): string {
  const requestId = generateRequestId();
  const built = contract.buildError(CODE, { requestId, message: messageFor(errorCode) });
  const body = JSON.stringify(built.body);
  const limit = contract.limits.readRequestsPerSecond;
  const names = serverHeaderNames(contract);
  // The request was never counted against a key: the read budget is reported as it stands.
  const headers = [
    `HTTP/1.1 ${built.status} Bad Request`,
    'Content-Type: application/json',
    `Content-Length: ${new TextEncoder().encode(body).byteLength}`,
    'Connection: close',
    `${names.requestId}: ${requestId}`,
    `${names.rateLimitLimit}: ${limit}`,
    `${names.rateLimitRemaining}: ${limit}`,
    `${names.rateLimitReset}: 1`,
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

/** Whether the socket can still carry an answer: not reset by the client, not answered already. */
export function canAnswerClientError(
  error: { code?: string } | undefined,
  socket: Pick<ClientErrorSocket, 'writable'>,
): boolean {
  return error?.code !== 'ECONNRESET' && socket.writable;
}

/** The `clientError` listener: answers when the socket can still carry an answer, else closes it. */
export function answerClientError(
  contract: Contract,
  error: { code?: string } | undefined,
  socket: ClientErrorSocket,
): void {
  if (canAnswerClientError(error, socket)) socket.end(clientErrorResponse(contract, error?.code));
  else socket.destroy();
}
