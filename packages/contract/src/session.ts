// The state one run shares across all its checks: the configuration, the client with its rate
// limiter (politeness holds across the whole run), the recorder and the discovered fixtures.

import { createPacer, unpaced } from '@svc/api-client/pacer';
import { ApiClient } from './http/client.js';
import { Recorder } from './recorder.js';
import { createRedactor, placeholderFor, type Redactor, withCaseSwapped } from './redact.js';
import { loadSpec, type Spec } from './spec.js';
import type { SessionConfig } from './types.js';
import { foundStateOf } from './undo/found-state.js';
import { UndoLedger } from './undo-ledger.js';

export interface Session {
  config: SessionConfig;
  spec: Spec;
  client: ApiClient;
  recorder: Recorder;
  redact: Redactor;
  /** What the run's writes changed of what it found, put back at the end of the run (run.ts). */
  undo: UndoLedger;
  /** Memoised values (fixtures) shared by every check of the run. */
  memo: Map<string, Promise<unknown>>;
}

export function createSession(config: SessionConfig): Session {
  const spec = loadSpec();
  const redact = createRedactor(
    withCaseSwapped([
      { value: config.apiKey, placeholder: placeholderFor('api-key', config.apiKeyEnv) },
      ...config.config.keys.map((k) => ({ value: k.key, placeholder: placeholderFor(k.name, k.env) })),
    ]),
  );
  // The run owns its key unless it shares it (--shared-key) or exceeds its budget on purpose (--burst).
  const ownsKey = config.sharedKey !== true && !config.burst;
  const recorder = new Recorder(spec, redact, config.apiKey, config.profile === 'mock', ownsKey);
  recorder.identifyKeys(config.apiKeyEnv, config.config.keys);
  const limiter = config.rate ? createPacer(config.rate) : unpaced;
  // The client takes what it needs of the session's config (URL, key, writes, time and size limits).
  // A stateless mock keeps nothing, so there is nothing to put back.
  const personUpdate = config.config.fixtures.person_update;
  const undo: UndoLedger = new UndoLedger((request) =>
    config.profile === 'full'
      ? foundStateOf(
          {
            spec,
            send: (r) => client.send(r),
            ...(personUpdate ? { personUpdate } : {}),
          },
          request,
        )
      : undefined,
  );
  const client: ApiClient = new ApiClient({
    ...config,
    spec,
    limiter,
    recorder,
    beforeWrite: (r) => undo.beforeWrite(r),
  });
  return { config, spec, client, recorder, redact, undo, memo: new Map() };
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
