// Prism as a library: the operations of the bundle (getHttpOperationsFromSpec), one instance with
// Prism's own logger at level silent (Prism is single-threaded and logging is what slows it most;
// a plain pino logger lacks the `.success` level Prism calls), and one call per request whose
// fp-ts Either is flattened into three outcomes the HTTP layer can act on.
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

/** One failed request check, as Prism reports it. */
export interface PrismDiagnostic {
  /** ['body', 'content'], ['path', 'id'], ['query', 'size'], ['query'] for a missing one; absent for a missing body. */
  path?: string[];
  /** The JSON Schema keyword that failed, or an HTTP status (401 security, 415 media type). */
  code?: string | number;
  message: string;
}

export type PrismOutcome =
  /** The request passed Prism's checks: this is the response Prism chose. */
  | { kind: 'response'; status: number; body: unknown }
  /** Prism found the request invalid (whatever it would have answered instead). */
  | { kind: 'invalid'; diagnostics: PrismDiagnostic[] }
  /** Prism could not answer (route, negotiation or generation error). */
  | { kind: 'failure'; status: number | undefined; title: string; detail: string };

// DiagnosticSeverity.Error of @stoplight/types: warnings and hints do not make a request invalid.
const SEVERITY_ERROR = 0;

export interface PrismEngine {
  readonly operationCount: number;
  request(request: PrismRequest, choice: MockChoice): Promise<PrismOutcome>;
}

export async function createPrismEngine(bundlePath: string): Promise<PrismEngine> {
  const operations: HttpOperations = await getHttpOperationsFromSpec(bundlePath);
  const logger = createLogger('svc-mock', { level: 'silent' });
  const base = {
    // Authentication is the mock's own (Prism would accept any key, and never answer 403).
    checkSecurity: false,
    validateRequest: true,
    validateResponse: false,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false as const,
    mock: { dynamic: false },
  };
  const prism = createInstance(base, { logger });

  return {
    operationCount: operations.length,
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
      if (result._tag === 'Right') {
        const errors = result.right.validations.input.filter((d) => d.severity === SEVERITY_ERROR);
        if (errors.length > 0) return { kind: 'invalid', diagnostics: errors.map((d) => ({ ...(d.path ? { path: d.path.map(String) } : {}), code: d.code, message: d.message })) };
        return { kind: 'response', status: result.right.output.statusCode, body: result.right.output.body };
      }
      // With no 422/400/default response documented, Prism gives up with its 422 problem, but the
      // violations it found travel along in `additional.validation`.
      const error = result.left as Error & { status?: number; detail?: string; additional?: { validation?: Array<{ location?: unknown[]; code?: string | number; message: string; severity?: string }> } };
      const validation = error.additional?.validation;
      if (Array.isArray(validation) && validation.length > 0) {
        const errors = validation.filter((v) => v.severity === undefined || v.severity === 'Error');
        return { kind: 'invalid', diagnostics: errors.map((v) => ({ ...(Array.isArray(v.location) ? { path: v.location.map(String) } : {}), code: v.code, message: v.message })) };
      }
      return { kind: 'failure', status: error.status, title: error.message, detail: error.detail ?? '' };
    },
  };
}
