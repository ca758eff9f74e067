// The sandbox: the shared request kernel (@svc/server-kernel: route, auth, idempotency, body,
// validation, errors) with the seeded store's keys and one handler per operation plugged in.

import {
  bundledContract,
  type Credentials,
  createKernel,
  type KernelOptions,
  type NodeHandler,
  type RateLimits,
} from '@svc/server-kernel';
import type { Contract } from '@svc/spec-runtime';
import { CONTRACT_CONFIG_PATH, contractConfigOf } from './contract-config.js';
import { type GuardOptions, guardRefusal } from './developer-guard.js';
import { createHandlers } from './handlers/index.js';
import { loadSeedFile } from './seed-file.js';
import type { SandboxState } from './store/model.js';
import { Store } from './store/store.js';
import { issuedId } from './support/ids.js';
import { isoTimestamp } from './support/time.js';
import { unknownFieldSuggestion } from './unknown-field.js';
import { WEBHOOK_TRIGGER_PATH } from './webhook-trigger.js';
import { handleWebhookTrigger } from './webhook-trigger-route.js';

/** docUrl, clock (idempotency expiry, rate-limit windows), body limits, idempotency budget: as the kernel's. */
type KernelTuning = Pick<
  KernelOptions<Credentials>,
  'docUrl' | 'clock' | 'maxBodyBytes' | 'maxBodyDepth' | 'idempotencyBudgetBytes'
>;

export interface SandboxOptions extends KernelTuning {
  /** Defaults to the bundle of @svc/openapi. */
  contract?: Contract;
  /** Defaults to fixtures/seed.json. */
  seed?: SandboxState;
  /** false turns rate limiting off; numbers override the contract's limits. On by default. */
  rateLimit?: false | Partial<RateLimits>;
  /** Serves POST /__sandbox/reset (restores the seed). Off by default. */
  enableReset?: boolean;
  /** Serves POST /__sandbox/webhooks/trigger (sends a webhook delivery to a given URL). Off by default. */
  enableWebhookTrigger?: boolean;
  /** The origin the sandbox listens on, once it does (startSandboxServer sets it): its own routes answer to it only. */
  origin?: () => string | undefined;
  /**
   * Serves GET /__sandbox/contract-config: the seed's demo keys and hidden ids in svc-contract's
   * config format, so that the suite needs no --config against this sandbox. Off by default.
   */
  serveContractConfig?: boolean;
}

export interface Sandbox {
  /** Answers at once where nothing must wait, else with a promise. */
  fetch: (request: Request) => Response | Promise<Response>;
  /** The same answers over node:http without a web Request, where that changes nothing (the kernel's). */
  serveNode: NodeHandler;
  store: Store;
  contract: Contract;
  /** Restores the seed and forgets idempotency keys and rate-limit windows. */
  reset(): void;
  /** Requests answered with INTERNAL_SERVER_ERROR, i.e. bugs; tests assert it stays zero. */
  readonly internalErrors: number;
}

export const RESET_PATH = '/__sandbox/reset';

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const contract = options.contract ?? bundledContract();
  const seed = options.seed ?? loadSeedFile();
  const store = new Store(seed);
  const clock = options.clock ?? Date.now;
  const handlers = createHandlers(contract);
  // What the sandbox-only routes that act hold to (developer-guard.ts); the kernel is there by the first request.
  const guard: GuardOptions = {
    contract,
    findKey: (token) => store.findKey(token),
    rateLimiter: () => kernel.rateLimiter,
    origin: () => options.origin?.(),
    ...(options.docUrl ? { docUrl: options.docUrl } : {}),
  };
  const kernel = createKernel({
    contract,
    findKey: (token) => store.findKey(token),
    answer: ({ operation, params, query, body, key }) => {
      const team = store.team(key.team_id);
      return handlers.get(operation.operationId)!({
        team,
        key,
        params,
        query,
        body: body ?? {},
        now: () => isoTimestamp(clock()),
        newId: (prefix) => issuedId(team, prefix),
      });
    },
    ...(options.rateLimit === false ? { rateLimit: 'off' as const } : { rateLimits: options.rateLimit ?? {} }),
    clock,
    // Handlers see only the store, the key and the URL, answer synchronously, and the store
    // changes only through writes: a read's answer can be kept until the next write.
    readCache: true,
    suggestionFor: unknownFieldSuggestion,
    ...(options.docUrl ? { docUrl: options.docUrl } : {}),
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.maxBodyDepth !== undefined ? { maxBodyDepth: options.maxBodyDepth } : {}),
    ...(options.idempotencyBudgetBytes !== undefined ? { idempotencyBudgetBytes: options.idempotencyBudgetBytes } : {}),
    routes: (app) => {
      if (options.enableReset) {
        app.post(RESET_PATH, (c) => {
          // A route that acts: guarded as the webhook trigger is (its own Host and Origin, JSON, a
          // sandbox key, a write against the rate limits). Its body is never read.
          const guarded = guardRefusal(guard, c.req.raw);
          if (guarded instanceof Response) return guarded;
          sandbox.reset();
          return c.json({ data: { reset: true } }, 200, guarded.headers);
        });
      }
      if (options.enableWebhookTrigger)
        app.post(WEBHOOK_TRIGGER_PATH, (c) => handleWebhookTrigger(c.req.raw, { ...guard, store }));
      // Read-only public demo data (the seed's fictional keys): no guard, so a sandbox behind a proxy or a
      // port mapping serves it too.
      if (options.serveContractConfig) {
        // Computed once: a seed without an all-scopes key fails here, at start, not on a request.
        contractConfigOf(seed, Object.keys(contract.scopes));
        // From the live state: what runs with writes use up (free items, active templates) as it is now.
        app.get(CONTRACT_CONFIG_PATH, (c) =>
          c.json({ data: contractConfigOf(store.state, Object.keys(contract.scopes)) }),
        );
      }
    },
  });

  const sandbox: Sandbox = {
    fetch: kernel.fetch,
    serveNode: kernel.serveNode,
    store,
    contract,
    reset() {
      store.reset();
      kernel.reset();
    },
    get internalErrors() {
      return kernel.internalErrors;
    },
  };
  return sandbox;
}
