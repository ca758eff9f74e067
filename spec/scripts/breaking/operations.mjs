// Rules for the operations themselves: paths, webhooks, methods and security requirements.
//
// - A path is identified by its template as written ("/v2/api/users/{id}"): that string is the key
//   a typed client calls, so renaming a path parameter is a removal too.
// - A removed path is reported once (not once per operation); a removed method of a path that
//   still exists is reported as an operation.
// - Security is compared as OpenAPI defines it: a list of alternatives, each a set of schemes with
//   scopes. It tightened when credentials that satisfied some baseline alternative exactly satisfy
//   no current alternative (a scope or scheme was added, or an alternative dropped). An operation
//   without `security` inherits the document's; an empty list means anonymous access.
//   Webhooks are called by the service, so their security is not the clients' concern.

/**
 * @typedef {import('./rules.mjs').Context} Context
 * @typedef {import('./document.mjs').Contract} Contract
 * @typedef {import('./document.mjs').Operation} Operation
 * @typedef {Map<string, Set<string>>} Requirement scheme → scopes
 */

/**
 * @param {Contract} contract
 * @param {Operation} operation
 * @returns {Requirement[]}
 */
function requirementsOf(contract, operation) {
  const list = operation.op.security ?? contract.doc.security ?? [];
  if (!Array.isArray(list) || list.length === 0) return [new Map()];
  return list.map(
    (requirement) =>
      new Map(
        Object.entries(requirement ?? {}).map(([scheme, scopes]) => [
          scheme,
          new Set(Array.isArray(scopes) ? scopes : []),
        ]),
      ),
  );
}

/** Whether credentials holding `held` meet `required`. @param {Requirement} held @param {Requirement} required */
const satisfies = (held, required) =>
  [...required].every(
    ([scheme, scopes]) => held.has(scheme) && [...scopes].every((scope) => held.get(scheme)?.has(scope)),
  );

/** "ApiKey [CRM_WRITE]", "no credentials". @param {Requirement} requirement */
const requirementText = (requirement) =>
  requirement.size === 0
    ? 'no credentials'
    : [...requirement]
        .map(([scheme, scopes]) => (scopes.size ? `${scheme} [${[...scopes].join(', ')}]` : scheme))
        .join(' + ');

/**
 * Reports removed paths and operations and tightened security; returns the operations present in
 * both documents, paired, for the other families.
 * @param {Context} ctx
 * @returns {[Operation, Operation][]}
 */
export function checkOperations(ctx) {
  const before = ctx.base.operations();
  const after = ctx.head.operations();
  const headContainers = new Set(ctx.head.containers().map(([label]) => label));
  for (const [label, , outbound] of ctx.base.containers()) {
    if (headContainers.has(label)) continue;
    const methods = [...before.values()].filter((o) => o.container === label).map((o) => o.method.toUpperCase());
    const what = methods.join(', ') || 'no operations';
    ctx.report(
      'path-removed',
      [label],
      outbound
        ? `The webhook ${label.replace(/^webhook /, '')} (${what}) was removed: integrators that consume it never receive it again.`
        : `The path ${label} was removed with its operations (${what}): clients calling it get 404.`,
    );
  }

  /** @type {[Operation, Operation][]} */
  const pairs = [];
  for (const [key, base] of before) {
    const head = after.get(key);
    if (!head) {
      if (headContainers.has(base.container)) {
        ctx.report(
          'operation-removed',
          [key],
          base.outbound
            ? `The webhook no longer sends ${base.method.toUpperCase()} requests: integrators that consume them never receive them again.`
            : `${key} was removed: clients calling it get 405.`,
        );
      }
      continue;
    }
    pairs.push([base, head]);
    if (base.outbound) continue;
    const now = requirementsOf(ctx.head, head);
    for (const held of requirementsOf(ctx.base, base)) {
      if (!now.some((required) => satisfies(held, required))) {
        ctx.report(
          'security-tightened',
          [key, 'security'],
          `Credentials with ${requirementText(held)} were enough and no longer are: the operation now requires ${now.map(requirementText).join(' or ')}.`,
        );
      }
    }
  }
  return pairs;
}
