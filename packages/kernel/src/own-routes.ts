// A server's own routes (the sandbox's reset, webhook trigger and contract config): fixed paths
// outside the contract, answered by a pipeline made of the kernel's own steps, so that they agree
// with the API by construction: the same request ids, the same rate limiter counting every key
// (an unknown one in the shared bucket), the same X-RateLimit-* on every answer, the same
// authentication and plan refusals, the same body reader and error bodies. A route that acts (it
// changes state or sends requests) also holds to the server's own origin and reads a JSON body.
import type { Credentials } from './auth.js';
import type { Outcome } from './call.js';
import type { Step } from './compose.js';
import type { Exchange } from './exchange.js';
import type { Maybe } from './maybe.js';
import type { CachedAnswer } from './read-cache.js';
import type { KernelStep, Services } from './services.js';
import { answerStep } from './steps/answer.js';
import { authenticationRefusalStep, authenticationStep } from './steps/authentication.js';
import { ownBodyStep } from './steps/own-body.js';
import { ownRouteStep } from './steps/own-route.js';
import { planStep } from './steps/plan.js';
import { rateCountStep, rateRefusalStep } from './steps/rate-limit.js';
import { requestIdStep } from './steps/request-id.js';
import { sameOriginStep } from './steps/same-origin.js';

/** What an own route's answer sees of its request. */
export interface OwnCall<K extends Credentials> {
  request: Request;
  requestId: string;
  /** The caller's key: always there for a route that acts, undefined for one that does not. */
  key: K | undefined;
  /** The JSON body (an object) of a route that reads one. */
  body: Record<string, unknown> | undefined;
  /** The headers the answer will carry (request id, rate limits, ...); a route may add its own. */
  responseHeaders: Record<string, string>;
}

export interface OwnRoute<K extends Credentials> {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** The route also answers `path/<one segment>` (a request id), which its answer reads from the URL. */
  readonly segment?: boolean;
  /**
   * A route that acts needs a key of the server on a paid plan, the server's own origin and a
   * JSON body; one that does not serves public data to anyone (still counted and named).
   */
  readonly acts: boolean;
  /** The most body bytes a route that acts reads (its body is refused past them, unread); none: the body is never read. */
  readonly maxBodyBytes?: number;
  answer(call: OwnCall<K>): Maybe<Outcome>;
}

/** A step that runs only for a route that acts; any other request passes by it. */
function whenActing<K extends Credentials>(step: KernelStep<K>): KernelStep<K> {
  return {
    name: `${step.name} (a route that acts)`,
    run: (x, next) => (x.ownRoute?.acts ? step.run(x, next) : next()),
  };
}

/** A GET that acts has no body to read and cannot be a page's form post: it skips the JSON body step. */
function whenActingWithBody<K extends Credentials>(step: KernelStep<K>): KernelStep<K> {
  const acting = whenActing(step);
  return { name: acting.name, run: (x, next) => (x.ownRoute?.method === 'GET' ? next() : acting.run(x, next)) };
}

/** The route's answer, given what its steps provided (a key only to a route that acts). */
function ownAnswer<K extends Credentials>(x: Exchange<K>): Maybe<Outcome> {
  const route = x.ownRoute!;
  const { request, requestId, body, responseHeaders } = x;
  return route.answer({ request, requestId, key: route.acts ? x.key : undefined, body, responseHeaders });
}

/** The own routes' steps, in the order a request meets them (the API's order, where they share a step). */
export function ownRouteSteps<K extends Credentials>(
  services: Services<K>,
  routes: readonly OwnRoute<K>[],
  origin: () => string | undefined,
): Step<Exchange<K>, CachedAnswer>[] {
  return [
    requestIdStep(services),
    authenticationStep(services),
    rateCountStep(services),
    ownRouteStep(services, routes),
    whenActing(sameOriginStep(services, origin)),
    rateRefusalStep(services),
    whenActing(authenticationRefusalStep(services)),
    whenActing(planStep(services)),
    whenActingWithBody(ownBodyStep(services)),
    answerStep({ ...services, answer: (call) => ownAnswer(call as Exchange<K>) }),
  ];
}
