// svc-write-idempotency-key: every POST/PUT/PATCH/DELETE operation under `paths` takes the
// Idempotency-Key header parameter and documents a 409 listing IDEMPOTENCY_KEY_REUSE and
// OTHER_TRANSACTION_IN_PROGRESS.
import { findParameter, houseRule, isWrite, missingDocumentedCodes, operations } from './lib/oas.js';

export default houseRule(
  {
    header: { type: 'string' },
    conflictStatus: { type: 'string' },
    conflictCodes: { type: 'array', items: { type: 'string' } },
  },
  function svcWriteIdempotencyKey(doc, options) {
    const header = options?.header ?? 'Idempotency-Key';
    const status = options?.conflictStatus ?? '409';
    const codes = options?.conflictCodes ?? ['IDEMPOTENCY_KEY_REUSE', 'OTHER_TRANSACTION_IN_PROGRESS'];
    const results = [];
    for (const o of operations(doc)) {
      if (!isWrite(o)) continue;
      if (findParameter(o, header, 'header') === undefined) {
        results.push({
          message: `Write operation ${o.label} does not take the ${header} header parameter.`,
          path: Array.isArray(o.op.parameters) ? [...o.path, 'parameters'] : o.path,
        });
      }
      const missing = missingDocumentedCodes(o, status, codes, 'a write operation');
      if (missing) results.push(missing);
    }
    return results;
  },
);
