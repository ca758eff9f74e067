// Random identifiers of the sandbox's resources, with the API's prefixes (`cth-`, `thc-`, ...);
// the random source is @svc/spec-runtime's.
import { randomAlphanumeric } from '@svc/spec-runtime';

/** A new id with the given prefix ("cth-"), unique among `taken`. */
export function newId(prefix: string, taken: (id: string) => boolean = () => false): string {
  for (;;) {
    const id = `${prefix}${randomAlphanumeric(8)}`;
    if (!taken(id)) return id;
  }
}

// Every string held by a team, so that a new id is checked for uniqueness in O(1) instead of by
// serialising the whole team on each write. Built once per team object (a reset makes new ones)
// and kept up to date by issuedId; a string is stored by reference, so the set costs a pointer each.
const known = new WeakMap<object, Set<string>>();

function stringsOf(root: object): Set<string> {
  const strings = new Set<string>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') strings.add(node);
    else if (typeof node === 'object' && node !== null) for (const child of Object.values(node)) stack.push(child);
  }
  return strings;
}

/** A new id with the given prefix, unique among every string `owner` (a team) holds or was given. */
export function issuedId(owner: object, prefix: string): string {
  let taken = known.get(owner);
  if (!taken) {
    taken = stringsOf(owner);
    known.set(owner, taken);
  }
  const id = newId(prefix, (candidate) => taken.has(candidate));
  taken.add(id);
  return id;
}
