// Every request of the behaviour suites goes through Harness.send, which validates the response
// against the bundled contract (status documented, headers, body schema, error code listed for
// the operation and status) and records (operation, status, code) for the coverage check. A
// response that does not conform, or any 5xx, fails the test on the spot: nothing escapes.
import type { Operation } from '@svc/spec-runtime';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/index.js';

export const KEYS = {
  full: 'sbx_demo_full_access',
  conversationsRead: 'sbx_demo_conversations_read',
  threadsRead: 'sbx_demo_threads_read',
  crmRead: 'sbx_demo_crm_read',
  receptionistRead: 'sbx_demo_receptionist_read',
  directoryRead: 'sbx_demo_directory_read',
  billingOnly: 'sbx_demo_billing_only',
  mainLineOnly: 'sbx_demo_main_line_only',
  revoked: 'sbx_demo_revoked',
  trial: 'sbx_demo_trial',
  legacy: 'sbx_demo_legacy_workspace',
} as const;

export interface SendOptions {
  /** JSON-encoded with Content-Type application/json unless rawBody is given. */
  body?: unknown;
  /** Sent as is (with the contentType given, application/json by default). */
  rawBody?: string | Uint8Array;
  /** null: none set (a string body then gets text/plain from Request, as with fetch). */
  contentType?: string | null;
  /** API key; null sends no Authorization header. Defaults to the full-access demo key. */
  key?: string | null;
  headers?: Record<string, string>;
}

export interface Sent {
  status: number;
  headers: Headers;
  // The parsed JSON body; `any` because assertions read into it freely.
  body: any;
  text: string;
  operation: Operation | null;
  code: string | undefined;
}

/** (operationId or '-') + status + code, e.g. "getThread 404 THREAD_NOT_FOUND" or "getThread 200". */
export type CoverageEntry = string;

export class Harness {
  readonly sandbox: Sandbox;

  constructor(
    options: SandboxOptions = {},
    readonly coverage: Set<CoverageEntry> = new Set(),
  ) {
    this.sandbox = createSandbox({ rateLimit: false, ...options });
  }

  request(method: string, path: string, options: SendOptions = {}): Request {
    const headers = new Headers(options.headers);
    const key = options.key === undefined ? KEYS.full : options.key;
    if (key !== null && !headers.has('authorization')) headers.set('Authorization', `Api-Key ${key}`);
    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && options.contentType !== null && !headers.has('content-type'))
      headers.set('Content-Type', options.contentType ?? 'application/json');
    return new Request(`http://sandbox.test${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: body as BodyInit } : {}),
    });
  }

  /** Sends one request in-process and validates its response (see the file comment). */
  async send(method: string, path: string, options: SendOptions = {}): Promise<Sent> {
    const request = this.request(method, path, options);
    const response = await this.sandbox.fetch(request);
    return this.validate(method, new URL(request.url).pathname, response);
  }

  /** Validates a response to `method pathname`; throws on any contract problem or 5xx. */
  async validate(method: string, pathname: string, response: Response): Promise<Sent> {
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new Error(`${method} ${pathname}: the response body is not JSON: ${text.slice(0, 200)}`);
    }
    const { status, headers } = response;
    if (status >= 500) throw new Error(`${method} ${pathname}: ${status} ${text}`);
    const operation = this.operationFor(method, pathname);
    const problems = this.sandbox.contract.validateResponse(operation, status, headers, body);
    if (problems.length > 0)
      throw new Error(
        `${method} ${pathname}: the response does not conform to the contract:\n${problems.join('\n')}\n${text.slice(0, 500)}`,
      );
    if (!headers.get('x-request-id')) throw new Error(`${method} ${pathname}: X-Request-Id is missing`);
    const code = (body as { error?: { code?: string } } | undefined)?.error?.code;
    // A 405 is an answer of every operation of the path: each must list it.
    const siblings = this.pathOperations(method, pathname);
    const answering = siblings.length ? siblings : [operation];
    for (const op of answering) this.coverage.add(`${op?.operationId ?? '-'} ${status}${code ? ` ${code}` : ''}`);
    return { status, headers, body, text, operation, code };
  }

  /**
   * The operation whose listed answers a response must be among: the one addressed or, for a
   * method the path does not document, the first operation of that path (each lists its 405).
   */
  operationFor(method: string, pathname: string): Operation | null {
    const match = this.sandbox.contract.matchRoute(method, pathname);
    return 'operation' in match ? match.operation : (this.pathOperations(method, pathname)[0] ?? null);
  }

  /** The operations of a documented path called with a method it does not document (else none). */
  private pathOperations(method: string, pathname: string): Operation[] {
    const match = this.sandbox.contract.matchRoute(method, pathname);
    if (!('allowed' in match)) return [];
    return match.allowed.flatMap((m) => {
      const sibling = this.sandbox.contract.matchRoute(m, pathname);
      return 'operation' in sibling ? [sibling.operation] : [];
    });
  }

  get = (path: string, options?: SendOptions) => this.send('GET', path, options);
  post = (path: string, body?: unknown, options?: SendOptions) =>
    this.send('POST', path, { ...(body !== undefined ? { body } : {}), ...options });
  put = (path: string, body?: unknown, options?: SendOptions) =>
    this.send('PUT', path, { ...(body !== undefined ? { body } : {}), ...options });
  patch = (path: string, body?: unknown, options?: SendOptions) =>
    this.send('PATCH', path, { ...(body !== undefined ? { body } : {}), ...options });
  delete = (path: string, options?: SendOptions) => this.send('DELETE', path, options);
}
