// The rule registry of the breaking-change gate: every rule id the comparison can report, the
// family (module) that owns it and one line saying what it catches. The CLI prints this list
// (`--rules`), the tests check every id they assert exists here, and `report()` refuses an id that
// is not registered, so a typo in a family cannot invent an unlisted rule.
//
// What counts as breaking is decided from the client's side of the wire:
// - what the client SENDS (request bodies and parameters) breaks when it is NARROWED: a value,
//   type, length, pattern or field a client could send before is refused now;
// - what the client READS (response bodies and headers) breaks when it is WIDENED or loses a
//   part: a field it read is gone or may be missing, or a type or enum value it was never told
//   about may now arrive. Narrowing a response (a field made required, null no longer returned, an
//   enum value dropped) is safe.
// Webhooks reverse the roles: the service sends the payload (checked with the response rules,
// because the integrator reads it) and reads the integrator's reply (checked with the request
// rules). Error codes have their own family: see error-codes.mjs.

/**
 * @typedef {'operations' | 'parameters' | 'request-schemas' | 'responses' | 'response-schemas' | 'error-codes'} Family
 * @typedef {{ family: Family, summary: string }} RuleInfo
 */

/** @type {Record<string, RuleInfo>} */
export const RULES = {
  // operations.mjs
  'path-removed': { family: 'operations', summary: 'A path (with all its operations) or a webhook was removed.' },
  'operation-removed': { family: 'operations', summary: 'An operation (a method of a path or webhook) was removed.' },
  'security-tightened': {
    family: 'operations',
    summary: 'An operation requires a scheme or scope that some credentials accepted before do not have.',
  },

  // parameters.mjs
  'parameter-removed': { family: 'parameters', summary: 'A path, query, header or cookie parameter was removed.' },
  'parameter-required-added': { family: 'parameters', summary: 'A new parameter is required.' },
  'parameter-became-required': { family: 'parameters', summary: 'An optional parameter was made required.' },

  // request-schemas.mjs (also applied to parameter schemas and to a webhook reply)
  'request-body-became-required': {
    family: 'request-schemas',
    summary: 'An optional (or absent) request body is now required.',
  },
  'request-media-type-removed': {
    family: 'request-schemas',
    summary: 'A request content type (or the whole body) was removed.',
  },
  'request-property-removed': {
    family: 'request-schemas',
    summary: 'A request body field was removed (at any depth).',
  },
  'request-required-property-added': {
    family: 'request-schemas',
    summary: 'A new required request field (at any depth).',
  },
  'request-property-became-required': {
    family: 'request-schemas',
    summary: 'An optional request field was made required.',
  },
  'request-type-narrowed': {
    family: 'request-schemas',
    summary: 'A request value accepts fewer types (e.g. null or number dropped).',
  },
  'request-enum-narrowed': {
    family: 'request-schemas',
    summary: 'A request enum or const lost a value (or a free value got an enum).',
  },
  'request-bound-tightened': {
    family: 'request-schemas',
    summary: 'min*/max*/exclusive bounds, multipleOf or uniqueItems of a request value tightened or added.',
  },
  'request-pattern-changed': { family: 'request-schemas', summary: 'A request string got a new or different pattern.' },
  'request-format-changed': { family: 'request-schemas', summary: 'A request string got a new or different format.' },
  'request-additional-properties-closed': {
    family: 'request-schemas',
    summary: 'A request object now refuses unknown fields (additionalProperties/unevaluatedProperties false).',
  },

  // responses.mjs
  'response-status-removed': {
    family: 'responses',
    summary: 'A documented response status (without error codes) was removed.',
  },
  'response-media-type-removed': { family: 'responses', summary: 'A response content type was removed.' },
  'response-header-removed': { family: 'responses', summary: 'A response header was removed.' },

  // response-schemas.mjs (also applied to response headers and to a webhook payload)
  'response-property-removed': {
    family: 'response-schemas',
    summary: 'A response body field was removed (at any depth).',
  },
  'response-property-became-optional': {
    family: 'response-schemas',
    summary: 'A response field that was always present may now be missing.',
  },
  'response-type-widened': {
    family: 'response-schemas',
    summary: 'A response value may have a type it could not have before (e.g. null).',
  },
  'response-enum-widened': {
    family: 'response-schemas',
    summary: 'A response enum or const gained a value or lost its restriction (error codes excepted).',
  },

  // error-codes.mjs
  'error-code-removed': {
    family: 'error-codes',
    summary: 'A code was removed from (or renamed in) the error catalogue.',
  },
  'error-code-status-changed': {
    family: 'error-codes',
    summary: "A catalogue code's x-svc-status (or x-svc-error-type) changed.",
  },
  'operation-error-code-removed': {
    family: 'error-codes',
    summary: 'An operation no longer documents a code it documented.',
  },
  'operation-error-code-status-changed': {
    family: 'error-codes',
    summary: 'An operation now documents a code under another status than before.',
  },
};

/** @typedef {{ rule: string, location: string, message: string }} Finding */

/** Joins location segments the way findings print them: "PATCH /x › requestBody › label". */
export const SEPARATOR = ' › ';

/**
 * @typedef {import('./document.mjs').Contract} Contract
 * @typedef {{
 *   base: Contract,
 *   head: Contract,
 *   findings: Finding[],
 *   report(rule: string, location: string[], message: string): void,
 *   errorCodes: Set<string>,
 * }} Context
 */

/**
 * The state one comparison shares between the families: both documents, the findings so far and
 * the error codes of both catalogues (response-schemas.mjs leaves sets of them to error-codes.mjs).
 * @param {Contract} base
 * @param {Contract} head
 * @returns {Context}
 */
export function createContext(base, head) {
  /** @type {Finding[]} */
  const findings = [];
  const seen = new Set();
  return {
    base,
    head,
    findings,
    errorCodes: new Set(),
    report(rule, location, message) {
      if (!(rule in RULES)) throw new Error(`unregistered rule ${rule}`);
      const finding = { rule, location: location.join(SEPARATOR), message };
      // The same schema reached twice at one location (e.g. through two media types) reports once.
      const key = `${finding.rule}\u0000${finding.location}\u0000${finding.message}`;
      if (!seen.has(key)) {
        seen.add(key);
        findings.push(finding);
      }
    },
  };
}
