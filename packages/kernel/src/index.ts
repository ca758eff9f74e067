export type { Credentials, Refusal } from './auth.js';
export { authenticate, authorize } from './auth.js';
export { bundledContract } from './bundled-contract.js';
export { MALFORMED_ANSWERS_PER_SECOND, MAX_MALFORMED_WAITING } from './client-error-pacing.js';
export type { Exchange } from './exchange.js';
export type { IdempotencyOutcome, IdempotencyTicket, StoredResponse } from './idempotency.js';
export { DEFAULT_IDEMPOTENCY_BUDGET_BYTES, IdempotencyStore, MAX_IN_FLIGHT } from './idempotency.js';
export { readJsonBody } from './json-body.js';
export { DEFAULT_KEEP_ALIVE, type KeepAlive, keepIdleConnectionsPastTheHint } from './keep-alive.js';
export type { Call, Failure, Kernel, KernelOptions, Outcome } from './kernel.js';
export { createKernel, isFailure } from './kernel.js';
export type { CorsPolicy, CorsRequest } from './loopback-cors.js';
export {
  corsHeadersFor,
  corsPolicyOf,
  isLoopbackOrigin,
  PREFLIGHT_MAX_AGE_SECONDS,
  preflightAnswer,
} from './loopback-cors.js';
export type { NodeHandler } from './node-request.js';
export type { OwnCall, OwnRoute } from './own-routes.js';
export type { Answer } from './pipeline.js';
export type { RateDecision, RateLimitMode, RateLimits } from './rate-limiter.js';
export { RateLimiter } from './rate-limiter.js';
export { DEFAULT_READ_CACHE_BYTES, ReadCache } from './read-cache.js';
export type { Listening } from './serve.js';
export { listen, urlOf } from './serve.js';
export type { Grant, SharedBudgetOptions } from './shared-budget.js';
export { SharedBudget } from './shared-budget.js';
export type { WebRoute } from './web-routes.js';
