// Every request of the suites goes through Harness.send, which checks what must hold for ANY
// answer of the mock: never a Prism problem+json, never a 422, never a 5xx; X-Request-Id and the
// X-RateLimit-* headers present; Idempotency-Key echoed; error.request_id equal to X-Request-Id;
// and the response valid against the bundled contract (spec-runtime validateResponse: status
// documented, headers, body schema, code listed for the operation and status).

import type { Contract, Operation } from '@svc/spec-runtime';
import { expect } from 'vitest';
import { type RunningMock, type ServeOptions, startMockServer } from '../../src/index.js';

export const KEY = 'mock_test_key';

export interface SendOptions {
  /** JSON-encoded with Content-Type application/json unless rawBody is given. */
  body?: unknown;
  rawBody?: string;
  /** Content-Type for rawBody (default application/json). */
  contentType?: string;
  /** API key; null sends no Authorization header. */
  key?: string | null;
  /** The whole Authorization header, when it should be something other than `Api-Key <key>`. */
  authorization?: string;
  headers?: Record<string, string>;
  /** A documented 5xx asked for with Prefer: the one case where a 5xx is the right answer. */
  preferServerError?: boolean;
  /** Skip the contract check (only for the mock's own usage errors, e.g. a Prefer it cannot serve). */
  notApiResponse?: boolean;
}

export interface Sent {
  status: number;
  headers: Headers;
  // The parsed JSON body; `any` because assertions read into it freely.
  body: any;
  text: string;
  operation: Operation | null;
}

export class Harness {
  /** operationId status code, for every response seen. */
  readonly seen = new Set<string>();

  private constructor(
    readonly running: RunningMock,
    readonly contract: Contract,
  ) {}

  static async start(options: ServeOptions = {}): Promise<Harness> {
    const running = await startMockServer({ port: 0, host: '127.0.0.1', ...options });
    return new Harness(running, running.mock.contract);
  }

  close(): Promise<void> {
    return this.running.close();
  }

  async send(method: string, path: string, options: SendOptions = {}): Promise<Sent> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.authorization !== undefined) headers.Authorization = options.authorization;
    else if (options.key !== null) headers.Authorization = `Api-Key ${options.key ?? KEY}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
      headers['Content-Type'] ??= options.contentType ?? 'application/json';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await fetch(`${this.running.url}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await response.text();
    let parsed: unknown;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    const route = this.contract.matchRoute(method, new URL(path, 'http://x').pathname);
    const operation = 'operation' in route ? route.operation : null;
    const sent: Sent = { status: response.status, headers: response.headers, body: parsed, text, operation };
    this.check(method, path, options, sent);
    return sent;
  }

  private check(method: string, path: string, options: SendOptions, sent: Sent): void {
    const where = `${method} ${path} -> ${sent.status} ${sent.text.slice(0, 300)}`;
    expect(sent.headers.get('content-type') ?? '', where).not.toMatch(/problem\+json/);
    expect(sent.status, where).not.toBe(422);
    if (!options.preferServerError) expect(sent.status, where).toBeLessThan(500);
    expect(this.running.mock.internalErrors, where).toBe(0);
    if (sent.text !== '') expect(sent.body, `${where}: the body is not JSON`).toBeDefined();
    const requestId = sent.headers.get('x-request-id');
    expect(requestId, where).toBeTruthy();
    const clientId = options.headers?.['X-Request-Id'];
    if (clientId) expect(requestId, where).toBe(clientId);
    else expect(requestId, where).toMatch(/^req_[A-Za-z0-9]{12}$/);
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
      expect(sent.headers.get(name), `${where}: ${name}`).toMatch(/^\d+$/);
    const idempotencyKey = options.headers?.['Idempotency-Key'];
    if (idempotencyKey) expect(sent.headers.get('idempotency-key'), where).toBe(idempotencyKey);
    if (sent.status >= 400) expect(sent.body?.error?.request_id, where).toBe(requestId);
    if (!options.notApiResponse) {
      const problems = this.contract.validateResponse(sent.operation, sent.status, sent.headers, sent.body);
      expect(problems, where).toEqual([]);
    }
    this.seen.add(`${sent.operation?.operationId ?? '-'} ${sent.status} ${sent.body?.error?.code ?? ''}`.trim());
  }
}
