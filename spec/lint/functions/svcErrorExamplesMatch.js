// svc-error-examples-match: every example of a 4xx/5xx response of an operation under `paths` has
// error.code among the codes the response lists (code.enum) and error.type equal to its type const;
// and every listed code has at least one example (the house style: one named example per code).
// For a response whose error is ApiError directly (no enum), an example's code must be a
// catalogue code of that status and its type the catalogue's type of that code.
import {
  catalogue,
  errorResponseForm,
  houseRule,
  isErrorStatus,
  isObject,
  JSON_MEDIA,
  operations,
  responses,
  statusMatches,
} from './lib/oas.js';

export default houseRule(
  { errorSchema: { type: 'string' }, errorCode: { type: 'string' } },
  function svcErrorExamplesMatch(doc, options) {
    const envelope = options?.errorSchema ?? 'ApiError';
    const cat = catalogue(doc, options?.errorCode ?? 'ErrorCode');
    const results = [];
    for (const o of operations(doc)) {
      for (const [status, response] of responses(o)) {
        if (!isErrorStatus(status)) continue;
        const f = errorResponseForm(response, envelope);
        if (f.form !== 'allOf' && f.form !== 'direct') continue; // svc-error-response-shape reports it
        const media = response.content[JSON_MEDIA];
        const mPath = [...o.path, 'responses', status, 'content', JSON_MEDIA];
        const examples = [];
        if ('example' in media) examples.push({ name: '(example)', value: media.example, path: [...mPath, 'example'] });
        if (isObject(media.examples)) {
          for (const [name, ex] of Object.entries(media.examples)) {
            if (isObject(ex) && 'value' in ex)
              examples.push({ name, value: ex.value, path: [...mPath, 'examples', name, 'value'] });
          }
        }
        const seenCodes = new Set();
        for (const ex of examples) {
          const err = isObject(ex.value) ? ex.value.error : undefined;
          if (!isObject(err)) {
            results.push({
              message: `Example '${ex.name}' of error response ${status} has no error object.`,
              path: ex.path,
            });
            continue;
          }
          const { code, type } = err;
          const at = (key) => (key in err ? [...ex.path, 'error', key] : [...ex.path, 'error']);
          seenCodes.add(code);
          if (f.form === 'allOf') {
            if (!f.codes.includes(code)) {
              results.push({
                message: `Example '${ex.name}' of error response ${status} has error.code ${JSON.stringify(code)}, which the response does not list (${f.codes.join(', ')}).`,
                path: at('code'),
              });
            }
            if (type !== f.typeConst) {
              results.push({
                message: `Example '${ex.name}' of error response ${status} has error.type ${JSON.stringify(type)}, not '${f.typeConst}'.`,
                path: at('type'),
              });
            }
          } else if (cat !== null) {
            const entry = cat.get(code);
            if (entry === undefined || !statusMatches(status, entry.status)) {
              results.push({
                message: `Example '${ex.name}' of error response ${status} has error.code ${JSON.stringify(code)}, which is not a catalogue code of status ${status}.`,
                path: at('code'),
              });
            } else if (type !== entry.type) {
              results.push({
                message: `Example '${ex.name}' of error response ${status} has error.type ${JSON.stringify(type)}, not '${String(entry.type)}' (the catalogue type of ${code}).`,
                path: at('type'),
              });
            }
          }
        }
        if (f.form === 'allOf') {
          const missing = f.codes.filter((c) => !seenCodes.has(c));
          if (missing.length > 0) {
            results.push({
              message: `Error response ${status} has no example for code(s) ${missing.join(', ')} (one example per listed code).`,
              path: isObject(media.examples) ? [...mPath, 'examples'] : mPath,
            });
          }
        }
      }
    }
    return results;
  },
);
