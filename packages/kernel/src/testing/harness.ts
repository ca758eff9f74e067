// One test harness for every server built on this kernel (the sandbox's suites send in process,
// the mock's over HTTP): each request goes through `send`, and its answer is checked against what
// must hold for any answer of a kernel-based server: valid against the contract (status
// documented, headers, body schema, code listed for the operation and status), never a 5xx,
// X-Request-Id (the client's, else `req_` + 12 alphanumerics) and X-RateLimit-* present,
// Idempotency-Key echoed, error.request_id equal to X-Request-Id. A problem throws, naming the
// request and the answer; what was seen is recorded for coverage checks. Plain Errors, no test
// framework: a server's own harness adds its checks by overriding `problems`.
import type { Contract, Operation } from '@svc/spec-runtime';

export interface SendOptions {
  /** JSON-encoded with Content-Type application/json unless rawBody is given. */
  body?: unknown;
  /** Sent as is, with contentType (application/json by default). */
  rawBody?: string | Uint8Array;
  /** null: none set (a string body then gets text/plain from Request, as with fetch). */
  contentType?: string | null;
  /** API key; null sends no Authorization header; undefined the harness's default key. */
  key?: string | null;
  /** The whole Authorization header, when it should be something other than `Api-Key <key>`. */
  authorization?: string;
  headers?: Record<string, string>;
  /** A documented 5xx asked for (the mock's Prefer): the one case where a 5xx is the right answer. */
  expectServerError?: boolean;
  /** Skip the contract check (a server's own usage errors, e.g. a Prefer the mock cannot serve). */
  notApiResponse?: boolean;
}

export interface Sent {
  status: number;
  headers: Headers;
  // The parsed JSON body; `any` because assertions read into it freely.
  // biome-ignore lint/suspicious/noExplicitAny: test code reads into bodies freely
  body: any;
  text: string;
  operation: Operation | null;
  code: string | undefined;
}

export type Transport = (request: Request) => Response | Promise<Response>;

export class KernelHarness {
  constructor(
    readonly contract: Contract,
    private readonly transport: Transport,
    private readonly defaultKey: string,
    /** Where requests go: an origin for HTTP, any for a server answered in process. */
    private readonly origin = 'http://server.test',
    /** `operationId status code` (or `- status code` off the contract) of every answer seen (may be shared). */
    readonly coverage = new Set<string>(),
  ) {}

  request(method: string, path: string, options: SendOptions = {}): Request {
    const headers = new Headers(options.headers);
    const key = options.key === undefined ? this.defaultKey : options.key;
    if (options.authorization !== undefined) headers.set('Authorization', options.authorization);
    else if (key !== null && !headers.has('authorization')) headers.set('Authorization', `Api-Key ${key}`);
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (body !== undefined && options.contentType !== null && !headers.has('content-type'))
      headers.set('Content-Type', options.contentType ?? 'application/json');
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = body as BodyInit;
    return new Request(`${this.origin}${path}`, init);
  }

  /** Sends one request and checks its answer (see the file comment). */
  async send(method: string, path: string, options: SendOptions = {}): Promise<Sent> {
    const request = this.request(method, path, options);
    return this.validate(request, await this.transport(request), options);
  }

  /** Reads and checks an answer to `request`; throws on any problem. */
  async validate(request: Request, response: Response, options: SendOptions = {}): Promise<Sent> {
    const text = await response.text();
    const pathname = new URL(request.url).pathname;
    const where = `${request.method} ${pathname} -> ${response.status} ${text.slice(0, 500)}`;
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new Error(`${where}: the body is not JSON`);
    }
    const operation = this.operationFor(request.method, pathname);
    const code = (body as { error?: { code?: string } } | undefined)?.error?.code;
    const sent: Sent = { status: response.status, headers: response.headers, body, text, operation, code };
    const problems = this.problems(request, sent, options);
    if (problems.length > 0) throw new Error(`${where}\n${problems.join('\n')}`);
    // A 405 is an answer of every operation of the path: each must list it.
    const siblings = this.pathOperations(request.method, pathname);
    for (const op of siblings.length ? siblings : [operation])
      this.coverage.add(`${op?.operationId ?? '-'} ${sent.status}${code ? ` ${code}` : ''}`);
    return sent;
  }

  /** What is wrong with an answer, one line per problem. */
  problems(request: Request, sent: Sent, options: SendOptions): string[] {
    const problems: string[] = [];
    if (sent.status >= 500 && !options.expectServerError) problems.push(`a server error (${sent.status})`);
    const requestId = sent.headers.get('x-request-id');
    const clientId = request.headers.get('x-request-id');
    if (clientId ? requestId !== clientId : !/^req_[A-Za-z0-9]{12}$/.test(requestId ?? ''))
      problems.push(`X-Request-Id is ${requestId}, not ${clientId ?? 'req_ + 12 alphanumerics'}`);
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
      if (!/^\d+$/.test(sent.headers.get(name) ?? '')) problems.push(`${name} is missing or not a number`);
    const idempotencyKey = request.headers.get('idempotency-key');
    if (idempotencyKey && sent.headers.get('idempotency-key') !== idempotencyKey)
      problems.push('Idempotency-Key is not echoed');
    if (sent.status >= 400 && sent.body?.error?.request_id !== requestId)
      problems.push('error.request_id differs from X-Request-Id');
    if (!options.notApiResponse)
      problems.push(...this.contract.validateResponse(sent.operation, sent.status, sent.headers, sent.body));
    return problems;
  }

  /**
   * The operation whose listed answers a response must be among: the one addressed or, for a
   * method the path does not document, the first operation of that path (each lists its 405).
   */
  operationFor(method: string, pathname: string): Operation | null {
    const match = this.contract.matchRoute(method, pathname);
    return 'operation' in match ? match.operation : (this.pathOperations(method, pathname)[0] ?? null);
  }

  /** The operations of a documented path called with a method it does not document (else none). */
  private pathOperations(method: string, pathname: string): Operation[] {
    const match = this.contract.matchRoute(method, pathname);
    if (!('allowed' in match)) return [];
    return match.allowed.flatMap((m) => {
      const sibling = this.contract.matchRoute(m, pathname);
      return 'operation' in sibling ? [sibling.operation] : [];
    });
  }

  get = (path: string, options?: SendOptions) => this.send('GET', path, options);
  post = (path: string, body?: unknown, options?: SendOptions) => this.send('POST', path, withBody(body, options));
  put = (path: string, body?: unknown, options?: SendOptions) => this.send('PUT', path, withBody(body, options));
  patch = (path: string, body?: unknown, options?: SendOptions) => this.send('PATCH', path, withBody(body, options));
  delete = (path: string, options?: SendOptions) => this.send('DELETE', path, options);
}

function withBody(body: unknown, options: SendOptions = {}): SendOptions {
  return body === undefined ? options : { body, ...options };
}
