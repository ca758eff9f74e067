// The state one run shares across all its checks: the configuration, the client with its rate
// limiter (politeness holds across the whole run), the recorder and the discovered fixtures.

import { createPacer, unpaced } from '@svc/api-client/pacer';
import { ApiClient } from './http/client.js';
import { Recorder } from './http/recorder.js';
import { createRedactor, placeholderFor, type Redactor } from './redact.js';
import { loadSpec, type Spec } from './spec.js';
import type { SessionConfig } from './types.js';

export interface Session {
  config: SessionConfig;
  spec: Spec;
  client: ApiClient;
  recorder: Recorder;
  redact: Redactor;
  /** Memoised values (fixtures) shared by every check of the run. */
  memo: Map<string, Promise<unknown>>;
}

export function createSession(config: SessionConfig): Session {
  const spec = loadSpec();
  const redact = createRedactor([
    { value: config.apiKey, placeholder: placeholderFor('api-key', config.apiKeyEnv) },
    ...config.config.keys.map((k) => ({ value: k.key, placeholder: placeholderFor(k.name, k.env) })),
  ]);
  // The run owns its key unless it shares it (--shared-key) or exceeds its budget on purpose (--burst).
  const ownsKey = config.sharedKey !== true && !config.burst;
  const recorder = new Recorder(spec, redact, config.apiKey, config.profile === 'mock', ownsKey);
  const limiter = config.rate ? createPacer(config.rate) : unpaced;
  // The client takes what it needs of the session's config (URL, key, writes, time and size limits).
  const client = new ApiClient({ ...config, spec, limiter, recorder });
  return { config, spec, client, recorder, redact, memo: new Map() };
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
