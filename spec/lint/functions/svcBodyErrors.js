// svc-body-errors: every operation under `paths` with a requestBody documents 415 listing
// UNSUPPORTED_MEDIA_TYPE and a 400 listing INVALID_REQUEST_BODY and INVALID_REQUEST.
import { houseRule, isObject, missingDocumentedCodes, operations } from './lib/oas.js';

const DEFAULT_REQUIRED = { 415: ['UNSUPPORTED_MEDIA_TYPE'], 400: ['INVALID_REQUEST_BODY', 'INVALID_REQUEST'] };

export default houseRule(
  {
    required: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
  function svcBodyErrors(doc, options) {
    const required = options?.required ?? DEFAULT_REQUIRED;
    const results = [];
    for (const o of operations(doc)) {
      if (!isObject(o.op.requestBody)) continue;
      for (const [status, codes] of Object.entries(required)) {
        const missing = missingDocumentedCodes(o, status, codes, 'which takes a request body');
        if (missing) results.push(missing);
      }
    }
    return results;
  },
);
