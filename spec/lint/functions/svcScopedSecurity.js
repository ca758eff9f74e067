// svc-operation-scoped-security: every operation under `paths` (webhooks are exempt: the service
// calls the customer there) has its own non-empty `security` array; every requirement names the
// ApiKey scheme with at least one scope, and every scope is a key of the scheme's x-svc-scopes.
// It also checks that the root `security` names only defined schemes (it replaces spectral:oas's
// oas3-operation-security-defined, which rejects scopes on an apiKey scheme).
import { houseRule, isObject, operations } from './lib/oas.js';

export default houseRule(
  { scheme: { type: 'string' }, scopesExtension: { type: 'string' } },
  function svcScopedSecurity(doc, options) {
    const schemeName = options?.scheme ?? 'ApiKey';
    const scopesKey = options?.scopesExtension ?? 'x-svc-scopes';
    const results = [];
    const schemes = isObject(doc?.components?.securitySchemes) ? doc.components.securitySchemes : {};
    const scheme = schemes[schemeName];
    let scopes = null;
    if (!isObject(scheme)) {
      results.push({
        message: `Security scheme '${schemeName}' is not defined in components.securitySchemes.`,
        path: isObject(doc?.components) ? ['components'] : [],
      });
    } else if (!isObject(scheme[scopesKey]) || Object.keys(scheme[scopesKey]).length === 0) {
      results.push({
        message: `Security scheme '${schemeName}' has no ${scopesKey} map of its scopes.`,
        path: ['components', 'securitySchemes', schemeName],
      });
    } else {
      scopes = new Set(Object.keys(scheme[scopesKey]));
    }

    if (Array.isArray(doc?.security)) {
      doc.security.forEach((req, i) => {
        if (!isObject(req)) return;
        for (const name of Object.keys(req)) {
          if (!(name in schemes)) {
            results.push({
              message: `Root security requirement names '${name}', which is not in components.securitySchemes.`,
              path: ['security', i, name],
            });
          }
        }
      });
    }

    for (const o of operations(doc)) {
      const sec = o.op.security;
      if (!Array.isArray(sec) || sec.length === 0) {
        results.push({
          message: `Operation ${o.label} must declare its own non-empty security (${schemeName} with its scope).`,
          path: sec === undefined ? o.path : [...o.path, 'security'],
        });
        continue;
      }
      sec.forEach((req, i) => {
        const reqPath = [...o.path, 'security', i];
        if (!isObject(req) || !(schemeName in req)) {
          results.push({
            message: `Security requirement ${i} of operation ${o.label} does not name ${schemeName}.`,
            path: reqPath,
          });
          return;
        }
        for (const name of Object.keys(req)) {
          if (name !== schemeName) {
            results.push({
              message: `Security requirement ${i} of operation ${o.label} names '${name}'; only ${schemeName} is used.`,
              path: [...reqPath, name],
            });
          }
        }
        const list = req[schemeName];
        if (!Array.isArray(list) || list.length === 0) {
          results.push({
            message: `Security requirement ${i} of operation ${o.label} names ${schemeName} without a scope.`,
            path: [...reqPath, schemeName],
          });
          return;
        }
        list.forEach((scope, j) => {
          if (scopes !== null && !scopes.has(scope)) {
            results.push({
              message: `Scope '${String(scope)}' of operation ${o.label} is not a key of ${schemeName}'s ${scopesKey}.`,
              path: [...reqPath, schemeName, j],
            });
          }
        });
      });
    }
    return results;
  },
);
