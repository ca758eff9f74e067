// Rules for error codes, "stable contracts that change only with an API version bump" (the API
// description, Versioning). The codes live in two places, both compared:
// - the catalogue, `components.schemas.ErrorCode`: a plain `enum` with x-svc-codes { CODE: { x-svc-status,
//   x-svc-error-type } }, or (the older form) a `oneOf` of { const, x-svc-status,
//   x-svc-error-type } (a plain `enum` is read too, without statuses);
// - each operation's error responses, whose `error.code` is constrained to the codes that
//   operation documents for that status (read through $ref/allOf like any schema).
//
// Breaking: a code removed from the catalogue (a rename is a removal plus an addition; the finding
// names the likely new name), a code whose catalogue status or type changed, a code an operation
// no longer documents, and a code an operation now documents under another status.
//
// Not breaking, by decision: a NEW code, in the catalogue or on an existing operation's response.
// The catalogue is expected to grow, and clients must handle a code they do not know by its
// status and `type` (every error carries both); forbidding additions would freeze the error model
// between major versions. The response rules therefore leave sets of error codes alone (see
// response-schemas.mjs), and only removals and moves are reported here.

/**
 * @typedef {import('./rules.mjs').Context} Context
 * @typedef {import('./document.mjs').Contract} Contract
 * @typedef {import('./document.mjs').Operation} Operation
 * @typedef {{ status?: number | string, type?: string }} CodeInfo
 * @typedef {any} Json
 */

/** The component schema that holds the catalogue. */
export const CATALOGUE_SCHEMA = 'ErrorCode';
const CATALOGUE_LOCATION = `components › schemas › ${CATALOGUE_SCHEMA}`;

/**
 * Every code of the catalogue with its status and type.
 * @param {Contract} contract
 * @returns {Map<string, CodeInfo>}
 */
export function catalogueOf(contract) {
  /** @type {Map<string, CodeInfo>} */
  const out = new Map();
  const schema = contract.resolve(contract.doc.components?.schemas?.[CATALOGUE_SCHEMA]);
  if (!schema || typeof schema !== 'object') return out;
  for (const raw of [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) {
    const entry = contract.resolve(raw);
    if (typeof entry?.const === 'string')
      out.set(entry.const, { status: entry['x-svc-status'], type: entry['x-svc-error-type'] });
  }
  // The same catalogue as a plain enum, its facts per code in x-svc-codes: a reshaping between the
  // two forms with the same codes, statuses and types is no change at all.
  const facts = schema['x-svc-codes'] ?? {};
  for (const code of Array.isArray(schema.enum) ? schema.enum : []) {
    if (typeof code !== 'string' || out.has(code)) continue;
    out.set(code, facts[code] ? { status: facts[code]['x-svc-status'], type: facts[code]['x-svc-error-type'] } : {});
  }
  return out;
}

/**
 * The codes one response documents: the values its body's `error.code` may take.
 * @param {Contract} contract
 * @param {Json} response a response object or a $ref to one
 * @returns {Set<string>}
 */
export function documentedCodes(contract, response) {
  const codes = new Set();
  for (const media of Object.values(contract.resolve(response)?.content ?? {})) {
    const error = contract.view(contract.view(media?.schema).properties.get('error'));
    const values = contract.view(error.properties.get('code')).values;
    for (const value of values?.values() ?? []) if (typeof value === 'string') codes.add(value);
  }
  return codes;
}

/**
 * An operation's codes, each with the statuses it is documented under.
 * @param {Contract} contract
 * @param {Json} op
 * @returns {Map<string, string[]>}
 */
export function operationCodes(contract, op) {
  /** @type {Map<string, string[]>} */
  const out = new Map();
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    for (const code of documentedCodes(contract, response)) out.set(code, [...(out.get(code) ?? []), status]);
  }
  return out;
}

/**
 * Every error code either document knows (catalogues and operations): the value sets the
 * response rules leave to this family.
 * @param {Contract} base
 * @param {Contract} head
 */
export function knownErrorCodes(base, head) {
  const codes = new Set();
  for (const contract of [base, head]) {
    for (const code of catalogueOf(contract).keys()) codes.add(code);
    for (const { op, outbound } of contract.operations().values()) {
      if (!outbound) for (const code of operationCodes(contract, op).keys()) codes.add(code);
    }
  }
  return codes;
}

/** "404 not_found_error". @param {CodeInfo} info */
const statusText = (info) => [info.status, info.type].filter((part) => part !== undefined).join(' ') || 'no status';

/** @param {Context} ctx */
export function checkCatalogue(ctx) {
  const before = catalogueOf(ctx.base);
  const after = catalogueOf(ctx.head);
  for (const [code, info] of before) {
    const now = after.get(code);
    if (!now) {
      const renamed = [...after]
        .filter(([other, o]) => !before.has(other) && o.status === info.status && o.type === info.type)
        .map(([other]) => other);
      const hint = renamed.length ? ` (renamed to ${renamed.join(' or ')}? That is a removal too.)` : '';
      ctx.report(
        'error-code-removed',
        [CATALOGUE_LOCATION, code],
        `The error code ${code} (${statusText(info)}) was removed from the catalogue: clients that handle it never match it again; codes change only with an API version bump.${hint}`,
      );
    } else if (now.status !== info.status || now.type !== info.type) {
      ctx.report(
        'error-code-status-changed',
        [CATALOGUE_LOCATION, code],
        `The error code ${code} moved from ${statusText(info)} to ${statusText(now)}: clients that handle it by status or type no longer see it there.`,
      );
    }
  }
}

/**
 * @param {Context} ctx
 * @param {Operation} base
 * @param {Operation} head
 */
export function checkOperationErrorCodes(ctx, base, head) {
  const before = operationCodes(ctx.base, base.op);
  const after = operationCodes(ctx.head, head.op);
  for (const [code, statuses] of before) {
    const now = after.get(code) ?? [];
    for (const status of statuses) {
      if (now.includes(status)) continue;
      const location = [head.key, `response ${status}`, code];
      if (now.length > 0) {
        ctx.report(
          'operation-error-code-status-changed',
          location,
          `${code} is now documented under ${now.join(', ')} instead of ${status}: clients that handle it under ${status} miss it.`,
        );
      } else {
        ctx.report(
          'operation-error-code-removed',
          location,
          `${code} is no longer documented for ${status}: clients that handle it never match it again; codes change only with an API version bump.`,
        );
      }
    }
  }
}
