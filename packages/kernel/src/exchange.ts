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

export class Exchange<K extends Credentials> implements Call<K> {
  readonly pathname: string;
  readonly query: URLSearchParams;
  requestId = '';
  idempotencyKey: string | undefined = undefined;
  readonly responseHeaders: Record<string, string> = {};
  /** Whom the Authorization header names: a key of the server's, or why none (see caller()). */
  private found: K | Refusal | undefined = undefined;
  /** Set by the rate limit's count when the key is past its budget; answered after routing. */
  overBudget: (Failure & { retryAfterSeconds: number }) | undefined = undefined;
  /** Set by the route step (a definite field: the steps after it read it). */
  operation = undefined as unknown as Operation;
  params: Record<string, string> = {};
  /** Set by the authentication step. */
  key = undefined as unknown as K;
  body: Record<string, unknown> | undefined = undefined;
  bodyValueCount: number | undefined = undefined;
  /** The whole request was validated already (in the body worker), so it is not validated again. */
  validated = false;
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

  /**
   * Whom the request's key names, looked up once: the rate limit counts it against that key's
   * budget, and the authentication step refuses it when it names none.
   */
  caller(): K | Refusal {
    this.found ??= authenticate(this.incoming.headers.get('authorization'), this.findKey);
    return this.found;
  }
}

export function isRefusal<K extends Credentials>(found: K | Refusal): found is Refusal {
  return 'code' in found;
}
