// response.id-kind: an id's prefix names the kind of what it identifies ("Identifier prefixes":
// cll- a call, msg- a text message, not- a conversation note), and a field saying the kind says the
// same. A thread's entity_type is the kind its entity_id names; an item shown with an id and a
// `type` (the conversation list's last_item, "type (e.g. CALL)", and items in any answer that shows
// them in that shape: a search, a batch, an item read) has the type of its id's kind, for the kinds
// whose item type the contract shows (the last item's type examples: CALL). The contract lists
// ThreadEntityType's values and ThreadEntityId's prefixes in the same order, so the pairing is read
// from it, not typed here. Bounded: the answer's data, at most one list of it, one level inside.
import { idPrefixes, isObject } from '@svc/spec-runtime';
import { dataOf, type Exchange } from '../http/exchange.js';
import type { Spec } from '../spec.js';

/** Most entries of a list answer looked at (the documented page size limit). */
const MAX_ENTRIES = 100;

interface Pairs {
  /** Each entity id prefix with the entity_type it implies. */
  entities: Array<{ prefix: string; type: string }>;
  /** The pairs whose type an item's `type` shows (the last item's documented values). */
  items: Array<{ prefix: string; type: string }>;
}

const pairsOf = new WeakMap<Spec, Pairs | null>();

/** The pairings the contract states, or null where it does not pair prefixes with types. */
function pairs(spec: Spec): Pairs | null {
  if (pairsOf.has(spec)) return pairsOf.get(spec) ?? null;
  const types = spec.schema('ThreadEntityType')?.enum;
  const idSchema = spec.schema('ThreadEntityId');
  const prefixes = idSchema ? idPrefixes(idSchema) : [];
  const entities =
    Array.isArray(types) && types.length === prefixes.length && prefixes.length > 0
      ? prefixes.map((prefix, i) => ({ prefix, type: String(types[i]) }))
      : null;
  const itemType = spec.schema('ConversationListLastItem')?.properties;
  const shown = isObject(itemType) && isObject(itemType.type) ? itemType.type : {};
  const itemTypes = [
    ...(Array.isArray(shown.enum) ? shown.enum : []),
    ...(Array.isArray(shown.examples) ? shown.examples : []),
  ];
  const paired = entities ? { entities, items: entities.filter((p) => itemTypes.includes(p.type)) } : null;
  pairsOf.set(spec, paired);
  return paired;
}

/** The objects of an answer's data: the resource, or a page of entries, and the objects one level inside each. */
function objectsOf(data: unknown): Array<Record<string, unknown>> {
  const top = (Array.isArray(data) ? data.slice(0, MAX_ENTRIES) : [data]).filter(isObject);
  return [...top, ...top.flatMap((o) => Object.values(o).filter(isObject))];
}

function entityProblems(paired: Pairs, objects: Array<Record<string, unknown>>): string[] {
  return objects.flatMap(({ entity_type, entity_id }) => {
    if (typeof entity_type !== 'string' || typeof entity_id !== 'string') return [];
    const implied = paired.entities.find((p) => entity_id.startsWith(p.prefix))?.type;
    return implied === undefined || implied === entity_type
      ? []
      : [`entity_id ${entity_id} names a ${implied} by its prefix, but entity_type is ${entity_type}`];
  });
}

function itemProblems(paired: Pairs, objects: Array<Record<string, unknown>>): string[] {
  return objects.flatMap(({ id, type }) => {
    if (typeof id !== 'string' || typeof type !== 'string') return [];
    const implied = paired.items.find((p) => id.startsWith(p.prefix))?.type;
    return implied === undefined || implied === type
      ? []
      : [`item ${id} is a ${implied} by its prefix, but its type is ${JSON.stringify(type.slice(0, 100))}`];
  });
}

/** The problems of the threads and items an answer holds (undefined where it holds none). */
export function idKindProblems(spec: Spec, exchange: Exchange): string[] | undefined {
  const paired = pairs(spec);
  if (!paired || exchange.status < 200 || exchange.status >= 300) return undefined;
  const objects = objectsOf(dataOf(exchange));
  const applies = objects.some(
    (o) =>
      (typeof o.entity_type === 'string' && typeof o.entity_id === 'string') ||
      (typeof o.id === 'string' &&
        typeof o.type === 'string' &&
        paired.items.some((p) => String(o.id).startsWith(p.prefix))),
  );
  if (!applies) return undefined;
  return [...entityProblems(paired, objects), ...itemProblems(paired, objects)];
}
