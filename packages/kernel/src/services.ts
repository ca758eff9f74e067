// What the steps of the pipeline share: the contract and what the kernel's options made of it
// (the limiter, the idempotency store, the read cache, the body limits, the error answers).
import type { BodyLimits, Contract, ErrorChoice, ServerHeaderNames } from '@svc/spec-runtime';
import type { Credentials } from './auth.js';
import type { Call, Outcome } from './call.js';
import type { Step } from './compose.js';
import type { Refuse } from './error-answer.js';
import type { Exchange } from './exchange.js';
import type { IdempotencyStore, StoredResponse } from './idempotency.js';
import type { CorsPolicy } from './loopback-cors.js';
import type { Maybe } from './maybe.js';
import type { RateLimiter } from './rate-limiter.js';
import type { CachedAnswer, ReadCache } from './read-cache.js';

export interface Services<K extends Credentials> {
  contract: Contract;
  names: ServerHeaderNames;
  answer(call: Call<K>): Maybe<Outcome>;
  limiter: RateLimiter;
  idempotency: IdempotencyStore | undefined;
  reads: ReadCache | undefined;
  bodyLimits: BodyLimits;
  offloadBodyBytes: number;
  /** What loopback origins may send and read (the CORS step), when the server serves them. */
  cors: CorsPolicy | undefined;
  refuse: Refuse;
  refuseChoice(requestId: string, choice: ErrorChoice): StoredResponse;
}

/** A step of the kernel's pipeline: it answers with the bytes of a JSON answer (or none). */
export type KernelStep<K extends Credentials> = Step<Exchange<K>, CachedAnswer>;
