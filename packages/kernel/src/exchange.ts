// One request on its way through the pipeline: what the steps learn about it (its id, its key,
// its operation, its body), the headers its answer will carry, and, once every step has let it
// through, the Call the server answers. A class, with every field set in the constructor: each
// request's exchange has the same shape (a getter or a field added later gave every request its
// own hidden class, and the garbage collector's time per read went up fivefold).
import type { Operation } from '@svc/spec-runtime';
import { authenticate, type Credentials, type Refusal } from './auth.js';
import type { Call, Failure } from './call.js';
import type { KernelRequest } from './node-request.js';
import type { OwnRoute } from './own-routes.js';
import type { Target } from './target.js';

/**
 * A step read what an earlier step provides before that step ran: the steps are out of order.
 * A bug of the pipeline's composition, answered as one (the documented 500, reported once).
 */
export class StepOrderError extends Error {
  override name = 'StepOrderError';
  constructor(what: string, provider: string) {
    super(`A step read ${what} before the ${provider} step provided it: the pipeline's steps are out of order.`);
  }
}

export class Exchange<K extends Credentials> implements Call<K> {
  readonly pathname: string;
  readonly query: URLSearchParams;
  requestId = '';
  idempotencyKey: string | undefined = undefined;
  readonly responseHeaders: Record<string, string> = {};
  /** Whom the Authorization header names: a key of the server's, or why none (see identify()). */
  private found: K | Refusal | undefined = undefined;
  /** Set by the rate limit's count when the key is past its budget; answered after routing. */
  overBudget: (Failure & { retryAfterSeconds: number }) | undefined = undefined;
  /** Set by the route step (read through `operation`). */
  private routed: Operation | undefined = undefined;
  params: Record<string, string> = {};
  /** Set by the authentication step's refusal of a request without a valid key (read through `key`). */
  private authenticated: K | undefined = undefined;
  body: Record<string, unknown> | undefined = undefined;
  bodyValueCount: number | undefined = undefined;
  /** A body large enough to be parsed and validated in the body worker, left as bytes by the body step for the validation step. */
  bodyBytes: Uint8Array | undefined = undefined;
  /** Set by the own-route step, for a request to one of the server's own routes. */
  ownRoute: OwnRoute<K> | undefined = undefined;

  constructor(
    /** What the steps read of the request: a web Request, or Node's request as one (NodeRequest). */
    readonly incoming: KernelRequest,
    /** The method, upper case, as sent (HEAD stays HEAD; the route step answers it as GET). */
    readonly method: string,
    target: Target,
    private readonly web: () => Request,
    private readonly findKey: (token: string) => K | undefined,
  ) {
    this.pathname = target.pathname;
    this.query = target.query;
  }

  /** The request as a web Request (built on first use for a request from node:http). */
  get request(): Request {
    return this.web();
  }

  /** The operation the request calls; the route step provides it. */
  get operation(): Operation {
    if (this.routed === undefined) throw new StepOrderError('the operation', 'route');
    return this.routed;
  }

  set operation(operation: Operation) {
    this.routed = operation;
  }

  /** The caller's valid key; the authentication step's refusal provides it. */
  get key(): K {
    if (this.authenticated === undefined) throw new StepOrderError('the key', 'authentication');
    return this.authenticated;
  }

  set key(key: K) {
    this.authenticated = key;
  }

  /** Looks up whom the request's key names: the authentication step does, once. */
  identify(): void {
    this.found = authenticate(this.incoming.headers.get('authorization'), this.findKey);
  }

  /**
   * Whom the request's key names, as the authentication step found: the rate limit counts it
   * against that key's budget, and the authentication step's refusal refuses it when it names none.
   */
  caller(): K | Refusal {
    if (this.found === undefined) throw new StepOrderError('the caller', 'authentication');
    return this.found;
  }
}

export function isRefusal<K extends Credentials>(found: K | Refusal): found is Refusal {
  return 'code' in found;
}
