// The breaking-change comparison of two OpenAPI documents: the last released contract (the
// baseline) and the current one. Each family of rules lives in its own module:
//
//   operations.mjs        paths, operations, webhooks, security
//   parameters.mjs        parameters removed, added required, made required
//   request-schemas.mjs   request bodies: what clients send must not narrow
//   responses.mjs         response statuses, content types, headers
//   response-schemas.mjs  response bodies: what clients read must not lose fields or widen
//   error-codes.mjs       the catalogue and each operation's codes
//
// schema-view.mjs folds $ref/allOf/oneOf/anyOf into one view per schema; schema-walk.mjs walks two
// schemas side by side (stopping on cycles); rules.mjs lists every rule id; format.mjs prints.
//
// The decisions, each argued in its module:
// - requests break when NARROWED (types, enums, bounds, patterns, formats, closed objects, required
//   fields), responses when WIDENED (a type such as null or an enum value the client was never
//   told about) or when a field disappears or stops being always present (request-schemas.mjs,
//   response-schemas.mjs);
// - error codes may be ADDED (to the catalogue or to an operation's response: clients must handle
//   unknown codes by status and type) but never removed, renamed or moved (error-codes.mjs);
// - webhooks reverse the roles: the payload is checked as a response, the reply as a request.
// A finding is breaking unless the major version of `info.version` went up: then the same findings
// are information, and the gate passes.
import { Contract } from './document.mjs';
import { checkCatalogue, checkOperationErrorCodes, knownErrorCodes } from './error-codes.mjs';
import { checkOperations } from './operations.mjs';
import { checkParameters } from './parameters.mjs';
import { checkRequestBody, requestSide } from './request-schemas.mjs';
import { responseSide } from './response-schemas.mjs';
import { checkResponses } from './responses.mjs';
import { createContext } from './rules.mjs';

export { ContractError } from './document.mjs';
export { RULES } from './rules.mjs';

/**
 * @typedef {import('./rules.mjs').Finding} Finding
 * @typedef {{
 *   baseline: { version: string },
 *   current: { version: string },
 *   majorBump: boolean,   // info.version's major went up: findings are information only
 *   breaking: boolean,    // there are findings and no major bump: the gate fails
 *   findings: Finding[],
 * }} Report
 */

/**
 * Compares the current contract with the baseline.
 * @param {unknown} baselineDoc the last released bundle (parsed JSON)
 * @param {unknown} currentDoc the current bundle (parsed JSON)
 * @returns {Report}
 * @throws {import('./document.mjs').ContractError} when a document is not a readable bundle
 */
export function compareContracts(baselineDoc, currentDoc) {
  const base = new Contract(baselineDoc, 'the baseline');
  const head = new Contract(currentDoc, 'the current contract');
  const ctx = createContext(base, head);
  for (const code of knownErrorCodes(base, head)) ctx.errorCodes.add(code);

  for (const [before, after] of checkOperations(ctx)) {
    // Who sends what: for a path the client sends the request and reads the response; for a
    // webhook the service sends the request (the integrator reads it) and reads the reply.
    const sent = before.outbound ? responseSide : requestSide;
    const received = before.outbound ? requestSide : responseSide;
    checkParameters(ctx, before, after, sent);
    checkRequestBody(ctx, before, after, sent);
    checkResponses(ctx, before, after, received);
    if (!before.outbound) checkOperationErrorCodes(ctx, before, after);
  }
  checkCatalogue(ctx);

  const majorBump = base.major !== undefined && head.major !== undefined && head.major > base.major;
  return {
    baseline: { version: base.version },
    current: { version: head.version },
    majorBump,
    breaking: ctx.findings.length > 0 && !majorBump,
    findings: ctx.findings,
  };
}
