// Rules for parameters (path, query, header, cookie). A parameter is identified by where it goes
// and its name (header names case-insensitively); path-level parameters apply to every operation
// of the path unless the operation redefines them.
//
// - Removing a parameter breaks: clients that send it are refused or silently ignored, and a
//   typed client's call no longer compiles. (For a webhook, the service sends the parameter and
//   the integrator reads it: removing it breaks just the same.)
// - A new required parameter, or an optional one made required, breaks every client that does not
//   send it. A webhook's receivers do not send parameters, so these do not apply to webhooks.
// - A parameter's schema is compared with the request rules (or, for a webhook, the response
//   rules), at the location "METHOD /path › query › name".
import { walkSchemas } from './schema-walk.mjs';

/**
 * @typedef {import('./rules.mjs').Context} Context
 * @typedef {import('./document.mjs').Contract} Contract
 * @typedef {import('./document.mjs').Operation} Operation
 * @typedef {import('./schema-walk.mjs').Side} Side
 * @typedef {any} Json
 */

// OpenAPI ignores these header parameters: content negotiation and auth have their own fields.
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/**
 * The parameters an operation takes, by "in:name".
 * @param {Contract} contract
 * @param {Operation} operation
 * @returns {Map<string, Json>}
 */
export function parametersOf(contract, operation) {
  const out = new Map();
  for (const list of [operation.pathItem.parameters, operation.op.parameters]) {
    for (const raw of Array.isArray(list) ? list : []) {
      const parameter = contract.resolve(raw);
      if (!parameter || typeof parameter.name !== 'string') continue;
      const name = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name;
      if (parameter.in === 'header' && IGNORED_HEADERS.has(name)) continue;
      out.set(`${parameter.in}:${name}`, parameter);
    }
  }
  return out;
}

/** A parameter's schema, given directly or under its single `content` entry. @param {Json} parameter */
export const parameterSchema = (parameter) =>
  parameter.schema ?? Object.values(parameter.content ?? {})[0]?.schema ?? true;

/**
 * @param {Context} ctx
 * @param {Operation} base
 * @param {Operation} head
 * @param {Side} side the rules for what the parameters' sender may send
 */
export function checkParameters(ctx, base, head, side) {
  const before = parametersOf(ctx.base, base);
  const after = parametersOf(ctx.head, head);
  for (const [key, parameter] of before) {
    const location = [head.key, parameter.in, parameter.name];
    const now = after.get(key);
    if (!now) {
      ctx.report(
        'parameter-removed',
        location,
        `The ${parameter.in} parameter "${parameter.name}" was removed: requests sending it are refused or no longer acted on.`,
      );
      continue;
    }
    if (!head.outbound && now.required === true && parameter.required !== true) {
      ctx.report(
        'parameter-became-required',
        location,
        `The ${parameter.in} parameter "${parameter.name}" is now required: requests without it are refused.`,
      );
    }
    walkSchemas(ctx, side, parameterSchema(parameter), parameterSchema(now), location);
  }
  if (head.outbound) return;
  for (const [key, parameter] of after) {
    if (!before.has(key) && parameter.required === true) {
      ctx.report(
        'parameter-required-added',
        [head.key, parameter.in, parameter.name],
        `A new required ${parameter.in} parameter "${parameter.name}": requests without it are refused.`,
      );
    }
  }
}
