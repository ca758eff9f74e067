// svc-response-headers: every response of an operation under `paths` declares X-Request-Id,
// X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset; every response of a write
// operation (POST/PUT/PATCH/DELETE) also declares Idempotency-Key, and its 2xx responses also
// Idempotency-Replayed. Header names compare case-insensitively.
import { houseRule, isObject, isWrite, operations, responses, statusOf } from './lib/oas.js';

const strings = { type: 'array', items: { type: 'string' } };

export default houseRule(
  { headers: strings, writeHeaders: strings, writeSuccessHeaders: strings },
  function svcResponseHeaders(doc, options) {
    const always = options?.headers ?? [
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
    ];
    const onWrites = options?.writeHeaders ?? ['Idempotency-Key'];
    const onWriteSuccess = options?.writeSuccessHeaders ?? ['Idempotency-Replayed'];
    const results = [];
    for (const o of operations(doc)) {
      const write = isWrite(o);
      for (const [status, response] of responses(o)) {
        if (!isObject(response)) continue; // an invalid response: svc-openapi-schema reports it
        const rPath = [...o.path, 'responses', status];
        const declared = new Set(
          isObject(response.headers) ? Object.keys(response.headers).map((h) => h.toLowerCase()) : [],
        );
        const at = isObject(response.headers) ? [...rPath, 'headers'] : rPath;
        const missing = always.filter((h) => !declared.has(h.toLowerCase()));
        if (missing.length > 0) {
          results.push({ message: `Response ${status} does not declare header(s) ${missing.join(', ')}.`, path: at });
        }
        if (!write) continue;
        const wanted = statusOf(status)?.klass === 2 ? [...onWrites, ...onWriteSuccess] : onWrites;
        const missingW = wanted.filter((h) => !declared.has(h.toLowerCase()));
        if (missingW.length > 0) {
          results.push({
            message: `Response ${status} of write operation ${o.label} does not declare header(s) ${missingW.join(', ')}.`,
            path: at,
          });
        }
      }
    }
    return results;
  },
);
