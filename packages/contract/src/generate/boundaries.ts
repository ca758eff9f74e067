// Values exactly at each documented limit, from inside: page and size at their minimum and
// maximum, strings of exactly maxLength (and minLength) characters, lists of exactly maxItems
// entries. The suite already sends each limit from outside (negative.*); a server that refuses
// the limit itself (size=100, 4000 characters) is as wrong as one that accepts one more. Each
// case is the baseline with one value moved to its limit, and must still be valid per the
// contract (spec-runtime's validateRequest), so it must be accepted. A string at its maxLength
// is made of characters that take two bytes in UTF-8 (after one ASCII letter, for the rules that
// ask for one): the limits count characters, and a server counting bytes refuses it.
import { deref, isObject, itemsOf, type Operation, propertiesOf, typesOf } from '@svc/spec-runtime';
import { expectedFor, type OpRequest } from '../expectations/expect.js';
import type { Spec } from '../spec.js';
import { type ConstraintKeyword, constraintId } from './constraints.js';

export interface BoundaryCase {
  label: string;
  request: OpRequest;
  /** The documented constraint it meets exactly (see constraints.ts). */
  constraint: string;
}

/**
 * Characters people write in names and notes (a typographic and a plain apostrophe, an ampersand,
 * quotes, angle brackets) that no text rule of the contract refuses: a server that refuses or
 * rewrites them ("Partner's seats" refused, "&" stored as "&amp;") shows it on a valid text.
 */
const WRITTEN = '\u2019\'&"<> ';

/**
 * A text of exactly n characters: the prefix, the characters people write, then characters two
 * bytes long in UTF-8 (é). The limits count characters: a server counting bytes refuses it where an
 * ASCII text of n passes. `plain`: without the written characters, for a pattern that refuses them.
 */
export function textOfLength(prefix: string, n: number, plain = false): string {
  return `${prefix}${plain ? '' : WRITTEN}`.padEnd(n, '\u00e9').slice(0, n);
}

export function boundaryCases(spec: Spec, op: Operation, baseline: OpRequest, withBody: boolean): BoundaryCase[] {
  const cases: BoundaryCase[] = [];
  const push = (
    label: string,
    request: OpRequest,
    where: 'query' | 'body',
    field: string,
    keyword: ConstraintKeyword,
    value: number,
  ): boolean => {
    if (expectedFor(spec, op, request) !== undefined) return false;
    cases.push({ label, request, constraint: constraintId(where, field, keyword, value) });
    return true;
  };
  for (const p of op.parameters.filter((x) => x.in === 'query')) {
    const s = p.schema;
    if (!typesOf(s).includes('integer')) continue;
    for (const keyword of ['minimum', 'maximum'] as const) {
      const bound = s[keyword];
      if (typeof bound === 'number')
        push(
          `query ${p.name}=${bound}`,
          { ...baseline, query: { ...baseline.query, [p.name]: String(bound) } },
          'query',
          p.name,
          keyword,
          bound,
        );
    }
  }
  const body = baseline.body;
  if (withBody && op.requestBody && isObject(body)) {
    const props = propertiesOf(spec.contract, deref(spec.contract, spec.resolve(op.requestBody.schemaPointer)));
    for (const [name, schema] of Object.entries(props)) {
      const set = (value: unknown) => ({ ...baseline, body: { ...body, [name]: value } });
      const current = (body as Record<string, unknown>)[name];
      if (typesOf(schema).includes('string') && schema.enum === undefined) {
        const max = schema.maxLength;
        // Where a pattern refuses the written characters, then the two-byte text, the limit is still met in ASCII.
        const atMax = (text: string, label: string) =>
          typeof max === 'number' && push(label, set(text), 'body', name, 'maxLength', max);
        if (typeof max === 'number')
          atMax(
            textOfLength('x', max),
            `body ${name} of ${max} characters (quotes, "&", "<>", "é": ${Buffer.byteLength(textOfLength('x', max))} bytes in UTF-8)`,
          ) ||
            atMax(textOfLength('x', max, true), `body ${name} of ${max} characters (${2 * max - 1} bytes in UTF-8)`) ||
            atMax('x'.repeat(max), `body ${name} of ${max} characters`);
        if (typeof schema.minLength === 'number' && schema.minLength > 0)
          push(
            `body ${name} of ${schema.minLength} character${schema.minLength === 1 ? '' : 's'}`,
            set('x'.repeat(schema.minLength)),
            'body',
            name,
            'minLength',
            schema.minLength,
          );
      }
      const items = itemsOf(spec.contract, schema);
      if (!items || !Array.isArray(current) || current.length === 0) continue;
      for (const keyword of ['minItems', 'maxItems'] as const) {
        const n = deref(spec.contract, schema)[keyword];
        if (typeof n === 'number' && n > 0)
          push(
            `body ${name} with ${n} item${n === 1 ? '' : 's'}`,
            set(Array.from({ length: n }, (_, i) => current[i % current.length])),
            'body',
            name,
            keyword,
            n,
          );
      }
    }
  }
  return cases;
}
