// Rules for what clients READ: response bodies and headers (and a webhook's payload, which the
// integrator reads). A change breaks a client here when a response written by the current
// contract can surprise code written against the baseline:
// - a field it read is gone, or no longer always present;
// - a value may have a type it was never told about (type WIDENED: null added, integer → number,
//   a fixed type relaxed to any);
// - a value may be outside the enum it was told about (enum WIDENED: a value added, or the
//   restriction dropped). Typed clients switch exhaustively over such enums.
// Narrowing a response is safe (null no longer returned, a field made required, a value dropped).
//
// Decisions:
// - Only what a typed client encodes is gated here: types, enum values, fields and whether they
//   are always present. Lengths, ranges, patterns and formats of responses are descriptive (no
//   client branches on a maxLength), so relaxing them is not reported.
// - New response fields and open objects (additionalProperties) are additions, never breaking:
//   clients must ignore fields they do not know.
// - Error codes are the exception to "a new enum value breaks": a value set made only of error
//   codes (the `error.code` of every error response, and the catalogue itself) is left to
//   error-codes.mjs, where a removed or moved code breaks and a new one does not (clients must
//   handle codes they do not know: the catalogue grows).
// - writeOnly fields are the client's (never returned) and are skipped on this side.

import { fieldNoun, typesText, valuesText } from './phrases.mjs';
import { admitsType, jsonType, propertyNames, valuesOf } from './schema-view.mjs';

/**
 * @typedef {import('./schema-view.mjs').View} View
 * @typedef {import('./rules.mjs').Context} Context
 * @typedef {import('./schema-walk.mjs').Side} Side
 */

/**
 * Whether a set of values is made of error codes only (and so is error-codes.mjs's concern).
 * @param {Context} ctx
 * @param {Map<string, unknown>} values
 */
const errorCodesOnly = (ctx, values) =>
  values.size > 0 && [...values.values()].every((value) => typeof value === 'string' && ctx.errorCodes.has(value));

/** @type {Side} */
export const responseSide = {
  name: 'response',
  skipsField: (view) => view.writeOnly,

  node(ctx, base, head, location) {
    const at = (/** @type {string} */ rule, /** @type {string} */ message) => ctx.report(rule, location, message);

    if (base.types !== null) {
      const gained = head.types === null ? null : [...head.types].filter((type) => !admitsType(base.types, type));
      if (gained === null || gained.length > 0) {
        at(
          'response-type-widened',
          `The type widened from ${typesText(base.types)} to ${typesText(head.types)}: clients may now receive ${gained ? typesText(new Set(gained)) : 'any type'}, which they do not expect.`,
        );
      }
    }

    const baseValues = valuesOf(base);
    if (baseValues === null || errorCodesOnly(ctx, baseValues)) return;
    const headValues = valuesOf(head);
    if (headValues === null) {
      // Dropping the enum along with its type was reported as a type widening already.
      if (head.types !== null && [...head.types].every((type) => admitsType(base.types, type))) {
        at(
          'response-enum-widened',
          `The value is no longer restricted to ${valuesText([...baseValues.values()])}: clients may receive values they do not handle.`,
        );
      }
      return;
    }
    const gained = [...headValues].filter(
      ([key, value]) => !baseValues.has(key) && admitsType(base.types, jsonType(value)),
    );
    if (gained.length > 0) {
      at(
        'response-enum-widened',
        `${valuesText(gained.map(([, value]) => value))} may now be returned: clients that handle only the values they were told about do not expect ${gained.length === 1 ? 'it' : 'them'}.`,
      );
    }
  },

  fields(ctx, base, head, location) {
    const headNames = propertyNames(head);
    const noun = fieldNoun(location, 'response');
    for (const name of propertyNames(base)) {
      if (ctx.base.view(base.properties.get(name)).writeOnly) continue;
      if (!headNames.has(name)) {
        ctx.report(
          'response-property-removed',
          [...location, name],
          `The ${noun} "${name}" was removed: clients that read it get nothing.`,
        );
      } else if (base.required.has(name) && !head.required.has(name)) {
        ctx.report(
          'response-property-became-optional',
          [...location, name],
          `The ${noun} "${name}" is no longer always present: clients that read it unconditionally break when it is missing.`,
        );
      }
    }
  },
};
