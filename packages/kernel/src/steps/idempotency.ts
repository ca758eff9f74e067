// Keyed writes run once: a stored success is replayed (Idempotency-Replayed: true), the same key
// on another endpoint or method is a conflict (409 IDEMPOTENCY_KEY_REUSE), a duplicate in flight
// is told to wait (409 OTHER_TRANSACTION_IN_PROGRESS). Nothing before this step awaits, so two
// identical keyed requests started together can never both run. What the later steps answer is
// stored (a success) or releases the key (a failure, or a crash).
import { previewValue } from '@svc/spec-runtime';
import type { Credentials } from '../auth.js';
import type { IdempotencyOutcome } from '../idempotency.js';
import type { KernelStep, Services } from '../services.js';

type Refused = Exclude<IdempotencyOutcome['kind'], 'new' | 'replay'>;

function refusalOf(kind: Refused, param: string, key: string): { error: string; message: string; param: string } {
  if (kind === 'reuse')
    return {
      error: 'IDEMPOTENCY_KEY_REUSE',
      message: `${param} ${previewValue(key)} was already used for a different endpoint or method.`,
      param,
    };
  if (kind === 'in-progress')
    return {
      error: 'OTHER_TRANSACTION_IN_PROGRESS',
      message: `Another request with ${param} ${previewValue(key)} is in progress; wait and retry.`,
      param,
    };
  return {
    error: 'OTHER_TRANSACTION_IN_PROGRESS',
    message: `Too many requests with an ${param} are in progress at once; wait and retry.`,
    param,
  };
}

export function idempotencyStep<K extends Credentials>({ idempotency, names, refuse }: Services<K>): KernelStep<K> {
  return {
    name: 'idempotency',
    run(x, next) {
      const key = x.idempotencyKey;
      if (idempotency === undefined || x.operation.class !== 'write' || key === undefined) return next();
      const begun = idempotency.begin(x.key.key, key, x.method, x.pathname);
      if (begun.kind === 'replay') {
        x.responseHeaders[names.idempotencyReplayed] = 'true';
        return begun.response;
      }
      if (begun.kind !== 'new') return refuse(x.requestId, refusalOf(begun.kind, names.idempotencyKey, key));
      const { ticket } = begun;
      let answered: ReturnType<typeof next>;
      try {
        answered = next();
      } catch (error) {
        ticket.abandon();
        throw error;
      }
      // Completed on the next turn at the earliest, so a duplicate sent with it finds its key in
      // flight (409 OTHER_TRANSACTION_IN_PROGRESS) whether or not it had a body to wait for.
      return Promise.resolve(answered).then(
        (response) => {
          ticket.complete(response);
          return response;
        },
        (error: unknown) => {
          ticket.abandon();
          throw error;
        },
      );
    },
  };
}
