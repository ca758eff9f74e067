// svc-error-response-shape: every 4xx/5xx response of an operation under `paths` has an
// application/json schema { type: object, required: [error], properties: { error } } whose error is
// ApiError, either directly or narrowed inside `error`:
//   error: { allOf: [ApiErrorFields, { properties: { type: {const}, code: <Name>Code (a string enum) } }] }
// and, in the narrowed form, every listed code exists in the catalogue (ErrorCode's enum, read from the
// document) with x-svc-status equal to the response's status, and `type` equals the catalogue's
// x-svc-error-type of those codes and is the type of that status (ErrorType's x-svc-status-of-type).
// Webhooks are exempt: their responses come from the customer's receiver, not from the API.
import {
  catalogue,
  errorResponseForm,
  houseRule,
  isErrorStatus,
  JSON_MEDIA,
  operations,
  responses,
  statusesOfType,
  statusMatches,
  statusOf,
} from './lib/oas.js';

export default houseRule(
  {
    errorSchema: { type: 'string' },
    errorCode: { type: 'string' },
    errorType: { type: 'string' },
  },
  function svcErrorResponseShape(doc, options) {
    const envelope = options?.errorSchema ?? 'ApiError';
    const codeTitle = options?.errorCode ?? 'ErrorCode';
    const cat = catalogue(doc, codeTitle);
    const typeStatuses = statusesOfType(doc, options?.errorType ?? 'ErrorType');
    const results = [];
    let reportedNoCatalogue = false;

    for (const o of operations(doc)) {
      for (const [status, response] of responses(o)) {
        if (!isErrorStatus(status)) continue;
        const rPath = [...o.path, 'responses', status];
        const f = errorResponseForm(response, envelope);
        if (f.form === 'none') {
          results.push({
            message: `Error response ${status} has no ${JSON_MEDIA} content (an error body with ${envelope}).`,
            path: rPath,
          });
          continue;
        }
        const sPath = [...rPath, 'content', JSON_MEDIA, 'schema'];
        if (f.form === 'bad') {
          results.push({ message: `Error response ${status}: the ${JSON_MEDIA} schema ${f.reason}.`, path: sPath });
          continue;
        }
        if (f.form === 'direct') continue;

        if (cat === null) {
          if (!reportedNoCatalogue) {
            reportedNoCatalogue = true;
            results.push({
              message: `No error catalogue found: no schema titled ${codeTitle} with an enum of codes.`,
              path: [],
            });
          }
          continue;
        }
        const errPath = [...sPath, ...f.at];
        f.codes.forEach((code, i) => {
          const entry = cat.get(code);
          const cPath = [...errPath, 'code', 'enum', i];
          if (entry === undefined) {
            results.push({
              message: `Error response ${status} lists code ${code}, which is not in the error catalogue (${codeTitle}).`,
              path: cPath,
            });
            return;
          }
          if (!statusMatches(status, entry.status)) {
            results.push({
              message: `Error response ${status} lists code ${code}, whose catalogue status is ${String(entry.status)}.`,
              path: cPath,
            });
          }
          if (entry.type !== f.typeConst) {
            results.push({
              message: `Error response ${status} has type '${f.typeConst}' but code ${code} has catalogue type '${String(entry.type)}'.`,
              path: [...errPath, 'type', 'const'],
            });
          }
        });
        if (typeStatuses !== null) {
          const statuses = typeStatuses.get(f.typeConst);
          const s = statusOf(status);
          if (statuses === undefined) {
            results.push({
              message: `Error response ${status} has type '${f.typeConst}', which is not an error type (ErrorType).`,
              path: [...errPath, 'type', 'const'],
            });
          } else if (s?.exact !== undefined && !statuses.includes(s.exact)) {
            results.push({
              message: `Error response ${status} has type '${f.typeConst}', whose statuses are ${statuses.join(', ')} (ErrorType x-svc-status-of-type).`,
              path: [...errPath, 'type', 'const'],
            });
          }
        }
      }
    }
    return results;
  },
);
