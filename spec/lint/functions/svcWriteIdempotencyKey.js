// svc-write-idempotency-key: every POST/PUT/PATCH/DELETE operation under `paths` takes the
// Idempotency-Key header parameter and documents a 409 listing IDEMPOTENCY_KEY_REUSE and
// OTHER_TRANSACTION_IN_PROGRESS. The description promises the key (its storage and replay) on
// POST, PUT and DELETE only: on any other write method (PATCH) the parameter must say that replay
// is not promised (`x-svc-inferred.replay`), and on the promised methods it must not.
import { findParameter, houseRule, isObject, isWrite, missingDocumentedCodes, operations } from './lib/oas.js';

/** Whether the parameter carries the marker that says replay is not promised. */
const marksUnpromised = (param, marker) => isObject(param['x-svc-inferred']) && marker in param['x-svc-inferred'];

function promiseProblem(o, found, options) {
  const promised = (options?.promisedMethods ?? ['post', 'put', 'delete']).includes(o.method);
  const marker = options?.unpromisedMarker ?? 'replay';
  const marked = marksUnpromised(found.param, marker);
  if (promised && marked)
    return `${o.label}: the description promises idempotency on ${o.method.toUpperCase()}, but its ${found.param.name} parameter says replay is not promised (x-svc-inferred.${marker}).`;
  if (!promised && !marked)
    return `${o.label}: the description does not promise idempotency on ${o.method.toUpperCase()}; its ${found.param.name} parameter must say so (x-svc-inferred.${marker}).`;
  return undefined;
}

export default houseRule(
  {
    header: { type: 'string' },
    conflictStatus: { type: 'string' },
    conflictCodes: { type: 'array', items: { type: 'string' } },
    promisedMethods: { type: 'array', items: { type: 'string' } },
    unpromisedMarker: { type: 'string' },
  },
  function svcWriteIdempotencyKey(doc, options) {
    const header = options?.header ?? 'Idempotency-Key';
    const status = options?.conflictStatus ?? '409';
    const codes = options?.conflictCodes ?? ['IDEMPOTENCY_KEY_REUSE', 'OTHER_TRANSACTION_IN_PROGRESS'];
    const results = [];
    for (const o of operations(doc)) {
      if (!isWrite(o)) continue;
      const found = findParameter(o, header, 'header');
      if (found === undefined) {
        results.push({
          message: `Write operation ${o.label} does not take the ${header} header parameter.`,
          path: Array.isArray(o.op.parameters) ? [...o.path, 'parameters'] : o.path,
        });
      } else {
        const problem = promiseProblem(o, found, options);
        if (problem) results.push({ message: problem, path: found.path });
      }
      const missing = missingDocumentedCodes(o, status, codes, 'a write operation');
      if (missing) results.push(missing);
    }
    return results;
  },
);
