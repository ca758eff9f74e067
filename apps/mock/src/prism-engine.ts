// Prism as a library: the operations of the bundle (getHttpOperationsFromSpec), one instance with
// Prism's own logger at level silent (Prism is single-threaded and logging is what slows it most;
// a plain pino logger lacks the `.success` level Prism calls), and one call per request whose
// fp-ts Either is flattened into a response or a failure.
import { createLogger } from '@stoplight/prism-core';
import { createInstance, getHttpOperationsFromSpec } from '@stoplight/prism-http';
import type { MockChoice } from './prefer.js';

type HttpOperations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;
type PrismInstance = ReturnType<typeof createInstance>;
type PrismConfig = NonNullable<Parameters<PrismInstance['request']>[2]>;

export interface PrismRequest {
  method: string;
  /** The raw (still percent-encoded) path: Prism decodes parameters itself. */
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body?: unknown;
}

export type PrismOutcome =
  /** The response Prism chose. */
  | { kind: 'response'; status: number; body: unknown }
  /** Prism could not answer (route, negotiation or generation error). */
  | { kind: 'failure'; status: number | undefined; title: string; detail: string };

export interface PrismEngine {
  request(request: PrismRequest, choice: MockChoice): Promise<PrismOutcome>;
}

export async function createPrismEngine(bundlePath: string): Promise<PrismEngine> {
  const operations: HttpOperations = await getHttpOperationsFromSpec(bundlePath);
  const logger = createLogger('svc-mock', { level: 'silent' });
  const base = {
    // Authentication and request validation are the kernel's (Prism would accept any key, never
    // answer 403, and answer an invalid request in its own dialect): Prism only picks and builds
    // the response of a request already found valid.
    checkSecurity: false,
    validateRequest: false,
    validateResponse: false,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false as const,
    mock: { dynamic: false },
  };
  const prism = createInstance(base, { logger });

  return {
    async request(request, choice) {
      // A fresh config per request: Prism writes the Accept header's media types into the config
      // it is given. The API speaks only JSON, so the media type is fixed and Accept ignored.
      const config = { ...base, mock: { ...choice, mediaTypes: ['application/json'] } } as PrismConfig;
      const input = {
        method: request.method.toLowerCase() as 'get',
        url: { path: request.path, query: request.query },
        headers: request.headers,
        body: request.body,
      };
      const result = await prism.request(input, operations, config)();
      if (result._tag === 'Right')
        return { kind: 'response', status: result.right.output.statusCode, body: result.right.output.body };
      const error = result.left as Error & { status?: number; detail?: string };
      return { kind: 'failure', status: error.status, title: error.message, detail: error.detail ?? '' };
    },
  };
}
