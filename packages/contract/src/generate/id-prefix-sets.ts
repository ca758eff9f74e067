// The id prefixes the contract names (x-svc-id-prefix on its id schemas), as sets: every prefix
// of the API, and the ones next to a parameter's, those of the kinds the contract groups with its
// kinds elsewhere (a conversation item is a call or a message; a thread's item is also a note). An
// id of such a kind is the likeliest to be taken for one of the parameter's by a server: one that
// lets a note id through to the items endpoint answers 404 where the contract refuses the prefix.
import { idPrefixes, isObject, type JsonObject } from '@svc/spec-runtime';
import type { Spec } from '../spec.js';

const setsOfSpec = new WeakMap<Spec, string[][]>();

/** Every set of prefixes a schema of the contract names (one per schema that names one). */
function prefixSets(spec: Spec): string[][] {
  let sets = setsOfSpec.get(spec);
  if (!sets) {
    const { components } = spec.contract.bundle;
    const schemas = isObject(components) ? components.schemas : undefined;
    sets = isObject(schemas)
      ? Object.values(schemas)
          .filter(isObject)
          .map((s) => idPrefixes(s as JsonObject))
          .filter((p) => p.length > 0)
      : [];
    setsOfSpec.set(spec, sets);
  }
  return sets;
}

/** Every prefix of the contract's ids (usr-, cll-, …). */
export function knownPrefixes(spec: Spec): string[] {
  return [...new Set(prefixSets(spec).flat())];
}

/** The prefixes the contract groups with all of `own` elsewhere, `own` left out. */
export function neighbourPrefixes(spec: Spec, own: readonly string[]): string[] {
  if (own.length === 0) return [];
  const around = prefixSets(spec).filter((set) => own.every((p) => set.includes(p)));
  return [...new Set(around.flat())].filter((p) => !own.includes(p));
}
