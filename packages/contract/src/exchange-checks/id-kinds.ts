// response.id-kind: a thread's entity_type is the kind its entity_id's prefix names ("Identifier
// prefixes": cll- a call, msg- a text message, not- a conversation note). The contract lists
// ThreadEntityType's values and ThreadEntityId's prefixes in the same order, so the pairing is
// read from it, not typed here. Bounded: the answer's data and at most one list of it.
import { isObject } from '@svc/spec-runtime';
import { dataOf, type Exchange } from '../http/exchange.js';
import type { Spec } from '../spec.js';

/** Most entries of a list answer looked at (the documented page size limit). */
const MAX_ENTRIES = 100;

/** The problems of the threads an answer holds (undefined where it holds none). */
export function idKindProblems(spec: Spec, exchange: Exchange): string[] | undefined {
  const paired = spec.entityKinds;
  if (paired.length === 0 || exchange.status < 200 || exchange.status >= 300) return undefined;
  const data = dataOf(exchange);
  const candidates = Array.isArray(data) ? data.slice(0, MAX_ENTRIES) : [data];
  const entities = candidates.filter(
    (e): e is { entity_type: string; entity_id: string } =>
      isObject(e) && typeof e.entity_type === 'string' && typeof e.entity_id === 'string',
  );
  if (entities.length === 0) return undefined;
  return entities.flatMap(({ entity_type, entity_id }) => {
    const implied = paired.find((p) => entity_id.startsWith(p.prefix))?.type;
    return implied === undefined || implied === entity_type
      ? []
      : [`entity_id ${entity_id} names a ${implied} by its prefix, but entity_type is ${entity_type}`];
  });
}
