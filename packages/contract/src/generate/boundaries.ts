// Values exactly at each documented limit, from inside: page and size at their minimum and
// maximum, strings of exactly maxLength (and minLength) characters, lists of exactly maxItems
// entries. The suite already sends each limit from outside (negative.*); a server that refuses
// the limit itself (size=100, 4000 characters) is as wrong as one that accepts one more. Each
// case is the baseline with one value moved to its limit, and must still be valid per the
// contract (spec-runtime's validateRequest), so it must be accepted.
import type { Operation } from '@svc/spec-runtime';
import { expectedFor, type OpRequest } from '../checks/expect.js';
import type { Spec } from '../spec.js';
import { deref, itemsOf, propertiesOf, typesOf } from './schema.js';

export interface BoundaryCase {
  label: string;
  request: OpRequest;
}

export function boundaryCases(spec: Spec, op: Operation, baseline: OpRequest, withBody: boolean): BoundaryCase[] {
  const cases: BoundaryCase[] = [];
  const push = (label: string, request: OpRequest) => {
    if (expectedFor(spec, op, request) === undefined) cases.push({ label, request });
  };
  for (const p of op.parameters.filter((x) => x.in === 'query')) {
    const s = p.schema;
    if (!typesOf(s).includes('integer')) continue;
    for (const bound of [s.minimum, s.maximum]) if (typeof bound === 'number') push(`query ${p.name}=${bound}`, { ...baseline, query: { ...baseline.query, [p.name]: String(bound) } });
  }
  const body = baseline.body;
  if (withBody && op.requestBody && typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const props = propertiesOf(spec, deref(spec, spec.resolve(op.requestBody.schemaPointer)));
    for (const [name, schema] of Object.entries(props)) {
      const set = (value: unknown) => ({ ...baseline, body: { ...body, [name]: value } });
      const current = (body as Record<string, unknown>)[name];
      if (typesOf(schema).includes('string') && schema.enum === undefined) {
        if (typeof schema.maxLength === 'number') push(`body ${name} of ${schema.maxLength} characters`, set('x'.repeat(schema.maxLength)));
        if (typeof schema.minLength === 'number' && schema.minLength > 0) push(`body ${name} of ${schema.minLength} character${schema.minLength === 1 ? '' : 's'}`, set('x'.repeat(schema.minLength)));
      }
      const items = itemsOf(spec, schema);
      if (typeof deref(spec, schema).maxItems === 'number' && items && Array.isArray(current) && current.length > 0) {
        const max = deref(spec, schema).maxItems as number;
        push(`body ${name} with ${max} items`, set(Array.from({ length: max }, (_, i) => current[i % current.length])));
      }
    }
  }
  return cases;
}
