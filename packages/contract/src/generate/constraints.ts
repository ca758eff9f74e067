// The request constraints an operation documents (numeric bounds of its query and path
// parameters, length and size limits of its body fields, one level into lists of objects), each
// named the same way wherever it is exercised: by a negative input from outside, by a boundary
// value from inside, or by a scenario. The coverage report sets one against the other.
import { deref, itemsOf, type JsonObject, type Operation, propertiesOf, typesOf } from '@svc/spec-runtime';
import type { Spec } from '../spec.js';

export type ConstraintKeyword = 'minimum' | 'maximum' | 'minLength' | 'maxLength' | 'minItems' | 'maxItems';
const KEYWORDS: readonly ConstraintKeyword[] = ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'];

/** `query size maximum 100`, `body options[].label maxLength 255`. Indexes in a field path become []. */
export function constraintId(
  where: 'query' | 'path' | 'body',
  field: string,
  keyword: ConstraintKeyword,
  value: number,
): string {
  return `${where} ${field.replace(/\[\d+\]/g, '[]')} ${keyword} ${value}`;
}

function limitsOf(where: 'query' | 'path' | 'body', field: string, schema: JsonObject): string[] {
  const ids: string[] = [];
  for (const keyword of KEYWORDS) {
    const value = schema[keyword];
    // A minimum length or count of 0 constrains nothing.
    if (typeof value === 'number' && !(keyword.startsWith('min') && keyword !== 'minimum' && value === 0))
      ids.push(constraintId(where, field, keyword, value));
  }
  return ids;
}

export function constraintsOf(spec: Spec, op: Operation): string[] {
  const ids: string[] = [];
  for (const p of op.parameters.filter(
    (x) => (x.in === 'query' || x.in === 'path') && typesOf(x.schema).some((t) => t === 'integer' || t === 'number'),
  ))
    ids.push(...limitsOf(p.in as 'query' | 'path', p.name, p.schema));
  if (op.requestBody) {
    for (const [name, raw] of Object.entries(
      propertiesOf(spec.contract, deref(spec.contract, spec.resolve(op.requestBody.schemaPointer))),
    )) {
      const schema = deref(spec.contract, raw);
      ids.push(...limitsOf('body', name, schema));
      const items = itemsOf(spec.contract, schema);
      if (items)
        for (const [child, s] of Object.entries(propertiesOf(spec.contract, items)))
          ids.push(...limitsOf('body', `${name}[].${child}`, deref(spec.contract, s)));
    }
  }
  return [...new Set(ids)];
}
