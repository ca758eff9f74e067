// The sandbox: the shared request kernel (@svc/server-kernel: route, auth, idempotency, body,
// validation, errors) with the seeded store's keys and one handler per operation plugged in.

import {
  type Answer,
  bundledContract,
  type Credentials,
  createKernel,
  type Exchange,
  type KernelOptions,
  type NodeHandler,
  type OwnRoute,
  type RateLimits,
} from '@svc/server-kernel';
import { type Contract, serverHeaderNames } from '@svc/spec-runtime';
import { RESET_PATH } from '@svc/spec-runtime/sandbox-config';
import { CONTRACT_CONFIG_PATH, contractConfigOf } from './contract-config.js';
import { docsRoute } from './docs-route.js';
import { createHandlers } from './handlers/index.js';
import { RequestLog, type RequestLogLimits } from './request-log.js';
import { lookupSuggestion, requestLogRoute } from './request-log-route.js';
import { loggedHeaderNames, recordOf } from './request-record.js';
import { loadSeedFile } from './seed-file.js';
import type { SandboxState } from './store/model.js';
import { type SandboxKey, Store } from './store/store.js';
import { issuedId } from './support/ids.js';
import { isoTimestamp } from './support/time.js';
import { unknownFieldSuggestion } from './unknown-field.js';
import { webhookTriggerRoute } from './webhook-trigger-route.js';

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
  /** A built docs folder (apps/docs/dist) to serve under /docs (docs-route.ts); startSandboxServer then points errors' doc_url there. */
  docsDir?: string;
  /** Bytes per second that /docs may send in all (default DOCS_BYTES_PER_SECOND), or false for no limit. */
  docsBytesPerSecond?: number | false;
  /**
   * The request log (request-log.ts) and its lookup route, GET /__sandbox/requests/<request_id>:
   * on by default within its bounds (numbers override them); false turns both off.
   */
  requestLog?: false | Partial<RequestLogLimits>;
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
  /** The exchanges answered last (undefined when the options turned the log off); a reset keeps them. */
  readonly requestLog: RequestLog | undefined;
}

// Where the reset route answers: one constant with the contract suite, which names it.
export { RESET_PATH };

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const contract = options.contract ?? bundledContract();
  const seed = options.seed ?? loadSeedFile();
  const store = new Store(seed);
  const clock = options.clock ?? Date.now;
  const handlers = createHandlers(contract);
  const requestLog = options.requestLog === false ? undefined : new RequestLog(options.requestLog);
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
    suggestionFor: (code, param, requestId) =>
      unknownFieldSuggestion(code, param) ??
      // Where neither the sandbox nor the catalogue has a next step, the way to see the exchange.
      (requestLog && contract.catalogue.get(code)?.suggestion === undefined ? lookupSuggestion(requestId) : undefined),
    ...(requestLog ? { onAnswer: logTo(requestLog, contract, clock) } : {}),
    ...(options.docUrl ? { docUrl: options.docUrl } : {}),
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.maxBodyDepth !== undefined ? { maxBodyDepth: options.maxBodyDepth } : {}),
    ...(options.idempotencyBudgetBytes !== undefined ? { idempotencyBudgetBytes: options.idempotencyBudgetBytes } : {}),
    ownRoutes: [
      ...ownRoutesOf(options, store, seed, contract, () => sandbox),
      ...(requestLog ? [requestLogRoute(requestLog)] : []),
    ],
    origin: () => options.origin?.(),
    // A console on another local port (the docs' `pnpm docs:serve`, a page on localhost:3000) may call the API.
    loopbackCors: true,
    webRoutes:
      options.docsDir === undefined ? [] : [docsRoute(options.docsDir, { bytesPerSecond: options.docsBytesPerSecond })],
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
    requestLog,
  };
  return sandbox;
}

/** The kernel's answer hook that keeps each exchange in the log. */
function logTo(log: RequestLog, contract: Contract, clock: () => number) {
  const context = {
    log,
    loggedHeaders: loggedHeaderNames(serverHeaderNames(contract)),
    now: () => isoTimestamp(clock()),
  };
  return (x: Exchange<SandboxKey>, answer: Answer) => {
    try {
      log.add(recordOf(x, answer, context));
    } catch (error) {
      // The log must never cost a request its answer: a bug here is reported, the answer goes out.
      console.error(`[svc-sandbox] request log: ${x.requestId}:`, error);
    }
  };
}

/**
 * The sandbox's own routes, through the kernel's steps (its own-routes.ts). Reset and the webhook
 * trigger act: the sandbox's own Host and Origin, JSON, a sandbox key on a paid plan, a write
 * against the rate limits (reset's body is never read). The contract config is read-only public
 * demo data (the seed's fictional keys): served to anyone, so a sandbox behind a proxy or a port
 * mapping serves it too.
 */
function ownRoutesOf(
  options: SandboxOptions,
  store: Store,
  seed: SandboxState,
  contract: Contract,
  sandbox: () => Sandbox,
): OwnRoute<SandboxKey>[] {
  const routes: OwnRoute<SandboxKey>[] = [];
  if (options.enableReset)
    routes.push({
      method: 'POST',
      path: RESET_PATH,
      acts: true,
      answer: () => {
        sandbox().reset();
        return { status: 200, body: { data: { reset: true } } };
      },
    });
  if (options.enableWebhookTrigger) routes.push(webhookTriggerRoute({ store }));
  if (options.serveContractConfig) {
    const scopes = Object.keys(contract.scopes);
    // Computed once at start, so that a seed without an all-scopes key fails here, not on a request;
    // then from the live state: what runs with writes use up (free items, active templates) as it is now.
    contractConfigOf(seed, scopes);
    routes.push({
      method: 'GET',
      path: CONTRACT_CONFIG_PATH,
      acts: false,
      answer: () => ({ status: 200, body: { data: contractConfigOf(store.state, scopes) } }),
    });
  }
  return routes;
}
