// --only: each filter names a resource (a tag of the contract, as a slug: threads, custom-fields),
// an operationId (createThread) or a check (auth.insufficient-scope) or group of checks (auth,
// negative). Resources and operations narrow where checks run; checks narrow which run there.
import { knownCheckIds } from './catalogue.js';
import { loadSpec, type Spec } from './spec.js';

// Response checks run on every response, fixture discovery runs for whatever needs it, the
// proxy's checks run only in the proxy and suite.error reports crashes: none of them can be selected.
export const ALWAYS_ON = ['response.', 'fixtures.', 'proxy.', 'suite.'];
const selectable = (id: string) => !ALWAYS_ON.some((prefix) => id.startsWith(prefix));
export const API_WIDE_RESOURCE = 'api-wide';

function isCheckFilter(filter: string): boolean {
  return knownCheckIds()
    .filter(selectable)
    .some((id) => id === filter || id.startsWith(`${filter}.`));
}

function scopeNames(spec: Spec): Set<string> {
  return new Set([...spec.resources(), API_WIDE_RESOURCE, ...spec.contract.operations.map((op) => op.operationId)]);
}

export function matchesOnly(
  only: readonly string[],
  resource: string,
  operationId: string,
  check: string,
  spec: Spec = loadSpec(),
): boolean {
  if (only.length === 0) return true;
  const scopes = scopeNames(spec);
  const scopeFilters = only.filter((f) => scopes.has(f));
  const checkFilters = only.filter((f) => !scopes.has(f));
  const scopeOk = scopeFilters.length === 0 || scopeFilters.some((f) => f === resource || f === operationId);
  const checkOk = checkFilters.length === 0 || checkFilters.some((f) => check === f || check.startsWith(`${f}.`));
  return scopeOk && checkOk;
}

/** The operations the filters let checks run on (every one when no filter names a resource or operation). */
export function selectedOperations(spec: Spec, only: readonly string[]): Set<string> {
  const ids = spec.contract.operations.map((op) => op.operationId);
  return new Set(
    ids.filter((id) =>
      matchesOnly(
        only.filter((f) => scopeNames(spec).has(f)),
        spec.resourceOf(spec.contract.operationsById.get(id)!),
        id,
        '',
        spec,
      ),
    ),
  );
}

/** Filters that match nothing in the contract or the check list (a typo would otherwise run nothing). */
export function unknownFilters(spec: Spec, only: readonly string[]): string[] {
  const scopes = scopeNames(spec);
  return only.filter((f) => !scopes.has(f) && !isCheckFilter(f));
}
