// The state one run shares across every test file in the worker: the configuration passed by the
// main process (vitest provide/inject), the client with its rate limiter, the recorder and the
// discovered fixtures. Kept on globalThis, so that however vitest loads the modules of the test
// files, the run has one limiter (politeness holds across files) and one recorder.
import { ApiClient } from './http/client.js';
import type { Auth, Exchange } from './http/exchange.js';
import { createPacer, unpaced } from '@svc/api-client/pacer';
import { Recorder } from './http/recorder.js';
import type { SessionConfig } from './model.js';
import { createRedactor, placeholderFor, type Redactor } from './redact.js';
import { loadSpec, type Spec } from './spec.js';

export interface Session {
  config: SessionConfig;
  spec: Spec;
  client: ApiClient;
  recorder: Recorder;
  redact: Redactor;
  /** Memoised values (fixtures) shared by every test file. */
  memo: Map<string, Promise<unknown>>;
}

const KEY = Symbol.for('@svc/contract.session');
type Holder = { [KEY]?: Session };

export function secretsOf(config: Pick<SessionConfig, 'apiKey' | 'apiKeyEnv' | 'config'>) {
  return [
    { value: config.apiKey, placeholder: placeholderFor('api-key', config.apiKeyEnv) },
    ...config.config.keys.map((k) => ({ value: k.key, placeholder: placeholderFor(k.name, k.env) })),
  ];
}

export function createSession(config: SessionConfig): Session {
  const spec = loadSpec();
  const redact = createRedactor(secretsOf(config));
  const authHeader = (auth: Auth | undefined): Record<string, string> => {
    const a = auth ?? { kind: 'main' };
    if (a.kind === 'none') return {};
    if (a.kind === 'header') return { Authorization: a.value };
    return { Authorization: `Api-Key ${a.kind === 'main' ? config.apiKey : a.key}` };
  };
  const recorder = new Recorder(spec, redact, (exchange: Exchange) => authHeader(exchange.request.auth), config.profile === 'mock');
  const limiter = config.rate ? createPacer(config.rate) : unpaced;
  const client = new ApiClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    allowWrites: config.allowWrites,
    timeoutMs: config.timeoutMs,
    ...(config.maxResponseBytes !== undefined ? { maxResponseBytes: config.maxResponseBytes } : {}),
    maxRetryWaitSeconds: config.maxRetryWaitSeconds,
    spec,
    limiter,
    recorder,
  });
  return { config, spec, client, recorder, redact, memo: new Map() };
}

/** The run's session, created on first use from the configuration the main process provided. */
export function session(provided: () => SessionConfig): Session {
  const holder = globalThis as Holder;
  const config = provided();
  const current = holder[KEY];
  if (current && current.config.runId === config.runId) return current;
  const created = createSession(config);
  holder[KEY] = created;
  return created;
}

/** Memoises one value per run (fixtures are discovered once, whichever file asks first). */
export function once<T>(s: Session, name: string, make: () => Promise<T>): Promise<T> {
  let value = s.memo.get(name) as Promise<T> | undefined;
  if (!value) {
    value = make();
    s.memo.set(name, value);
  }
  return value;
}
