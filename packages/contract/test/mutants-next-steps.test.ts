// Mutants of what an answer says beside its status: the next step a code's meaning gives (the
// suggestion, where one is given), the request id of a refusal made by an early layer (the media
// type), the replay of a key (never on a failure; on a search too), what an id names. Each is the
// sandbox broken in one way the description states, caught by name.
import { afterAll, describe } from 'vitest';
import {
  isQueueWrite,
  itCatchesEachByName,
  itPassesEachAgainstTheSandbox,
  type Mutant,
  removeOutputs,
  withHeader,
} from './support/mutants.js';
import { dataIn, errorIn, json, type Mutation, pathOf } from './support/servers.js';

afterAll(removeOutputs);

/** A server whose refusals of one code carry another suggestion. */
const suggesting = (code: string, suggestion: string): Mutation => ({
  response: (r) =>
    r.status >= 400
      ? json(r, (b) => {
          const error = errorIn(b);
          if (error?.code === code) error.suggestion = suggestion;
        })
      : r,
});

/** A server whose media-type guard answers before the request id is read: a 415 carries an id of its own. */
const mediaTypeGuardFirst: Mutation = {
  response: (r) =>
    r.status === 415
      ? withHeader(
          json(r, (b) => {
            const error = errorIn(b);
            if (error) error.request_id = 'req_A1b2C3d4E5f6';
          }),
          'x-request-id',
          'req_A1b2C3d4E5f6',
        )
      : r,
};

/** A server that marks a keyed failure replayed once its key has failed before (it remembers keys, not answers). */
function failuresMarkedReplayed(): Mutation {
  const failed = new Set<string>();
  return {
    response: (r, q) => {
      const key = q.headers.get('idempotency-key');
      if (key === null || r.status < 400) return r;
      const seen = failed.has(key);
      failed.add(key);
      return seen ? withHeader(r, 'idempotency-replayed', 'true') : r;
    },
  };
}

/** A server that takes the item search for a read: a key sent again runs it again, unmarked. */
const searchNeverReplayed: Mutation = {
  request: (q) =>
    q.method === 'POST' && pathOf(q) === '/v2/api/conversations/items/search'
      ? { ...q, headers: withoutKey(q.headers) }
      : q,
  response: (r, q) =>
    q.method === 'POST' && pathOf(q) === '/v2/api/conversations/items/search' && q.headers.has('idempotency-key')
      ? withHeader(r, 'idempotency-key', q.headers.get('idempotency-key') ?? '')
      : r,
};

function withoutKey(headers: Headers): Headers {
  const kept = new Headers(headers);
  kept.delete('idempotency-key');
  return kept;
}

/** A server that shows the call of a queue entry by its bare internal id (no cll-). */
const bareCallIds: Mutation = {
  response: (r, q) =>
    isQueueWrite(q)
      ? json(r, (b) => {
          const numbers = dataIn(b)?.numbers;
          if (Array.isArray(numbers))
            for (const n of numbers as Array<Record<string, unknown>>)
              if (typeof n.call_id === 'string') n.call_id = n.call_id.replace(/^cll-/, '');
        })
      : r,
};

/** A 409 THREAD_ALREADY_EXISTS whose suggested look-up always says entity_type=CALL (copied from the calls' code). */
const lookupAsCall: Mutation = {
  response: (r) =>
    r.status === 409
      ? json(r, (b) => {
          const error = errorIn(b);
          if (error?.code === 'THREAD_ALREADY_EXISTS' && typeof error.suggestion === 'string')
            error.suggestion = error.suggestion.replace(/entity_type=[A-Z_]+/, 'entity_type=CALL');
        })
      : r,
};

const NEXT_STEPS: Mutant[] = [
  {
    name: 'tells a key refused on a line to see the request log, not to list its lines',
    caughtBy: 'response.error-details',
    only: ['auth.line-forbidden'],
    mutation: suggesting('SVC_NUMBER_FORBIDDEN', 'See the request log for details.'),
  },
  {
    name: 'tells a request with no key to send a Bearer token',
    caughtBy: 'response.error-details',
    only: ['auth.malformed-header'],
    mutation: suggesting('UNAUTHORIZED', 'Send the key as `Authorization: Bearer <key>`.'),
  },
  {
    name: 'answers an unsupported media type with a request id of its own, not the one sent',
    caughtBy: 'response.request-id',
    only: ['negative.content-type'],
    allowWrites: true,
    mutation: mediaTypeGuardFirst,
  },
  {
    name: 'marks a keyed request that fails again replayed',
    caughtBy: 'response.replayed-stored-only',
    only: ['idempotency.failed-not-consumed'],
    allowWrites: true,
    mutation: failuresMarkedReplayed,
  },
  {
    name: 'runs a keyed item search sent again anew, unmarked',
    caughtBy: 'idempotency.replay',
    only: ['searchConversationItems'],
    mutation: searchNeverReplayed,
  },
  {
    name: "shows a queue entry's call by its bare id",
    caughtBy: 'response.schema',
    only: ['dialer-queues.partial-update'],
    allowWrites: true,
    mutation: bareCallIds,
  },
  {
    name: 'suggests looking a thread up as a CALL whatever the item',
    caughtBy: 'threads.duplicate',
    only: ['threads'],
    allowWrites: true,
    mutation: lookupAsCall,
  },
];

describe('mutants of what a refusal says beside its code', () => {
  itCatchesEachByName(NEXT_STEPS);
  itPassesEachAgainstTheSandbox(NEXT_STEPS, { allowWrites: true });
});
