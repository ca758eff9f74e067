// Rules for what clients SEND: request bodies and (via parameters.mjs) parameter schemas. A change
// breaks a client here when the server stops accepting something a client written against the
// baseline may send: the contract NARROWED. Widening a request (a new optional field, a value
// added to an enum, a bound relaxed, a type added) is always safe.
//
// Decisions:
// - Every validation keyword that narrows counts, not only those a typed client sees: lengths,
//   ranges, exclusive bounds, multipleOf, uniqueItems, patterns, formats and closing an object
//   (additionalProperties or unevaluatedProperties false). A bound that did not exist is a
//   tightening too, and any new or changed pattern or format is (regular expressions cannot be
//   compared for inclusion, so a changed pattern is presumed narrower, except where
//   pattern-inclusion.mjs can prove the new one accepts everything the old one did).
// - A removed request field breaks: either the server now refuses it (closed object) or it
//   silently stops acting on it, and a typed client's object literal no longer compiles.
// - readOnly fields are the server's (never sent) and are skipped on this side.
// - When the type narrowed, enum values lost only because their type is gone are not reported a
//   second time, and fields/items are compared only while both versions admit objects/arrays.

import { classPatternIncludes } from './pattern-inclusion.mjs';
import { boundText, fieldNoun, typesText, valuesText } from './phrases.mjs';
import { accepts, admitsType, jsonType, propertyNames, valuesOf } from './schema-view.mjs';
import { walkSchemas } from './schema-walk.mjs';

/**
 * @typedef {import('./schema-view.mjs').View} View
 * @typedef {import('./rules.mjs').Context} Context
 * @typedef {import('./schema-walk.mjs').Side} Side
 * @typedef {import('./document.mjs').Operation} Operation
 */

const REFUSED = 'requests that were valid are now refused';

/** @type {Side} */
export const requestSide = {
  name: 'request',
  skipsField: (view) => view.readOnly,

  node(ctx, base, head, location) {
    const at = (/** @type {string} */ rule, /** @type {string} */ message) => ctx.report(rule, location, message);

    if (head.types !== null) {
      const lost = base.types === null ? null : [...base.types].filter((type) => !admitsType(head.types, type));
      if (lost === null || lost.length > 0) {
        at(
          'request-type-narrowed',
          `The accepted type narrowed from ${typesText(base.types)} to ${typesText(head.types)}: requests sending ${lost ? typesText(new Set(lost)) : 'another type'} are now refused.`,
        );
      }
    }

    const baseValues = valuesOf(base);
    const headValues = valuesOf(head);
    if (headValues !== null) {
      if (baseValues === null) {
        // Only a real restriction is news: a type narrowing to null/boolean was reported above.
        if (base.types === null || [...base.types].some((type) => type !== 'null' && type !== 'boolean')) {
          if (head.values !== null)
            at(
              'request-enum-narrowed',
              `The value is now restricted to ${valuesText([...headValues.values()])}: any other value is refused.`,
            );
        }
      } else {
        const lost = [...baseValues].filter(
          ([key, value]) => !headValues.has(key) && admitsType(head.types, jsonType(value)),
        );
        if (lost.length > 0) {
          at(
            'request-enum-narrowed',
            `${valuesText(lost.map(([, value]) => value))} ${lost.length === 1 ? 'is' : 'are'} no longer accepted: requests sending ${lost.length === 1 ? 'it' : 'them'} are refused.`,
          );
        }
      }
    }

    const bound = (/** @type {string} */ text) => at('request-bound-tightened', `${text}: ${REFUSED}.`);
    /** @param {'minLength' | 'minItems' | 'minProperties'} key */
    const raisedMin = (key) => {
      const [was, now] = [base[key], head[key]];
      if (now !== undefined && now > (was ?? 0))
        bound(was === undefined ? `${key} ${now} added` : `${key} raised from ${was} to ${now}`);
    };
    /** @param {'maxLength' | 'maxItems' | 'maxProperties'} key */
    const loweredMax = (key) => {
      const [was, now] = [base[key], head[key]];
      if (now !== undefined && (was === undefined || now < was))
        bound(was === undefined ? `${key} ${now} added` : `${key} lowered from ${was} to ${now}`);
    };

    if (accepts(base, 'string') && accepts(head, 'string')) {
      raisedMin('minLength');
      loweredMax('maxLength');
      // A new pattern that accepts every string one of the old ones accepted is a widening.
      const added = [...head.patterns].filter(
        (pattern) =>
          !base.patterns.has(pattern) && ![...base.patterns].some((old) => classPatternIncludes(old, pattern) === true),
      );
      if (added.length > 0) {
        const was = base.patterns.size ? `changed from /${[...base.patterns].join('/ and /')}/ to` : 'added:';
        at(
          'request-pattern-changed',
          `The pattern ${was} /${added.join('/ and /')}/: strings that matched before may be refused.`,
        );
      }
      const formats = [...head.formats].filter((format) => !base.formats.has(format));
      if (formats.length > 0) {
        const was = base.formats.size ? `changed from ${[...base.formats].join(', ')} to` : 'added:';
        at(
          'request-format-changed',
          `The format ${was} ${formats.join(', ')}: strings that were valid may be refused.`,
        );
      }
    }

    if (accepts(base, 'number') && accepts(head, 'number')) {
      const [lowerWas, lowerNow] = [base.lower, head.lower];
      if (
        lowerNow &&
        (!lowerWas ||
          lowerNow.value > lowerWas.value ||
          (lowerNow.value === lowerWas.value && lowerNow.exclusive && !lowerWas.exclusive))
      ) {
        bound(
          lowerWas
            ? `The lower bound tightened from ${boundText(lowerWas, 'lower')} to ${boundText(lowerNow, 'lower')}`
            : `A lower bound ${boundText(lowerNow, 'lower')} was added`,
        );
      }
      const [upperWas, upperNow] = [base.upper, head.upper];
      if (
        upperNow &&
        (!upperWas ||
          upperNow.value < upperWas.value ||
          (upperNow.value === upperWas.value && upperNow.exclusive && !upperWas.exclusive))
      ) {
        bound(
          upperWas
            ? `The upper bound tightened from ${boundText(upperWas, 'upper')} to ${boundText(upperNow, 'upper')}`
            : `An upper bound ${boundText(upperNow, 'upper')} was added`,
        );
      }
      // multipleOf m still admits every baseline value when some baseline multipleOf is a multiple of m.
      for (const divisor of head.multipleOf) {
        const implied = [...base.multipleOf].some((was) => Math.abs(was / divisor - Math.round(was / divisor)) < 1e-9);
        if (!implied)
          bound(
            base.multipleOf.size
              ? `multipleOf changed from ${[...base.multipleOf].join(', ')} to ${divisor}`
              : `multipleOf ${divisor} added`,
          );
      }
    }

    if (accepts(base, 'array') && accepts(head, 'array')) {
      raisedMin('minItems');
      loweredMax('maxItems');
      if (head.uniqueItems && !base.uniqueItems) bound('uniqueItems added');
    }

    if (accepts(base, 'object') && accepts(head, 'object')) {
      raisedMin('minProperties');
      loweredMax('maxProperties');
      if (head.additional === false && base.additional !== false) {
        at(
          'request-additional-properties-closed',
          'The object now refuses fields it does not list (additionalProperties: false): requests carrying other fields are refused.',
        );
      }
    }
  },

  fields(ctx, base, head, location) {
    const baseNames = propertyNames(base);
    const headNames = propertyNames(head);
    const noun = fieldNoun(location, 'request');
    // A name listed only in `required` has no schema: its view is ANY, never readOnly.
    const readOnlyBefore = (/** @type {string} */ name) => ctx.base.view(base.properties.get(name)).readOnly;
    const readOnlyNow = (/** @type {string} */ name) => ctx.head.view(head.properties.get(name)).readOnly;
    for (const name of baseNames) {
      if (!headNames.has(name) && !readOnlyBefore(name)) {
        ctx.report(
          'request-property-removed',
          [...location, name],
          `The ${noun} "${name}" was removed: requests sending it are refused or no longer acted on.`,
        );
      }
    }
    for (const name of head.required) {
      if (base.required.has(name) || readOnlyNow(name)) continue;
      if (baseNames.has(name)) {
        ctx.report(
          'request-property-became-required',
          [...location, name],
          `The ${noun} "${name}" is now required: requests without it are refused.`,
        );
      } else {
        ctx.report(
          'request-required-property-added',
          [...location, name],
          `A new required ${noun} "${name}": requests without it are refused.`,
        );
      }
    }
  },
};

/** "requestBody", or "requestBody (text/plain)" for anything but JSON. @param {string} mediaType */
export const bodySegment = (mediaType) =>
  mediaType === 'application/json' ? 'requestBody' : `requestBody (${mediaType})`;

/**
 * The request body of one operation: required-ness, content types and (with `side`) its schemas.
 * For a webhook the service sends the body, so `side` is then the response side and an optional
 * body becoming required concerns nobody.
 * @param {Context} ctx
 * @param {Operation} base
 * @param {Operation} head
 * @param {Side} side
 */
export function checkRequestBody(ctx, base, head, side) {
  const baseBody = ctx.base.resolve(base.op.requestBody);
  const headBody = ctx.head.resolve(head.op.requestBody);
  if (!head.outbound && headBody?.required === true && baseBody?.required !== true) {
    ctx.report(
      'request-body-became-required',
      [head.key, 'requestBody'],
      baseBody
        ? 'The request body is now required: requests without one are refused.'
        : 'A required request body was added: requests without one are refused.',
    );
  }
  for (const [mediaType, media] of Object.entries(baseBody?.content ?? {})) {
    const headMedia = headBody?.content?.[mediaType];
    if (!headMedia) {
      ctx.report(
        'request-media-type-removed',
        [head.key, bodySegment(mediaType)],
        headBody
          ? `The request body no longer accepts ${mediaType}: requests sending it are refused (415).`
          : 'The request body was removed: requests sending one are refused or no longer acted on.',
      );
      continue;
    }
    walkSchemas(ctx, side, media?.schema ?? true, headMedia.schema ?? true, [head.key, bodySegment(mediaType)]);
  }
}
