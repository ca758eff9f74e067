// The rate limit, in two steps. Counting comes before routing, so that every answer (a 404
// included) reports the budget in X-RateLimit-*; refusing comes after it, so that an unknown path
// or method is told so (404, 405) rather than to wait. One budget per known key; every unknown,
// malformed or missing key shares one, so made-up keys cannot grow the limiter's table.
import type { Credentials } from '../auth.js';
import { isRefusal } from '../exchange.js';
import type { KernelStep, Services } from '../services.js';

const UNKNOWN_KEY_BUCKET = '\u0000unknown';

export function rateCountStep<K extends Credentials>({ contract, names, limiter }: Services<K>): KernelStep<K> {
  const { writeMethods } = contract.limits;
  return {
    name: 'rate limit: count',
    run(x, next) {
      const kind = writeMethods.includes(x.method) ? 'write' : 'read';
      const caller = x.caller();
      const decision = limiter.consume(isRefusal(caller) ? UNKNOWN_KEY_BUCKET : caller.key, kind);
      x.responseHeaders[names.rateLimitLimit] = String(decision.limit);
      x.responseHeaders[names.rateLimitRemaining] = String(decision.remaining);
      x.responseHeaders[names.rateLimitReset] = String(decision.resetSeconds);
      if (!decision.allowed) {
        x.overBudget = {
          error: 'RATE_LIMIT_EXCEEDED',
          message: `Rate limit exceeded: ${decision.limit} ${kind} requests per second.`,
          retryAfterSeconds: Math.max(1, decision.resetSeconds),
        };
      }
      return next();
    },
  };
}

export function rateRefusalStep<K extends Credentials>({ refuse }: Services<K>): KernelStep<K> {
  return {
    name: 'rate limit: refuse past the budget',
    run: (x, next) => (x.overBudget === undefined ? next() : refuse(x.requestId, x.overBudget)),
  };
}
