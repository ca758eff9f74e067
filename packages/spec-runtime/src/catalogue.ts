// The error catalogue, read from components.schemas.ErrorCode (a plain `enum`, its meanings in
// x-enum-descriptions and, per code in x-svc-codes, x-svc-status, x-svc-error-type,
// x-svc-suggestion, x-svc-retryable, x-svc-api-wide, x-svc-detail-rules) and the status of each error type from
// ErrorType's x-svc-status-of-type. Nothing here is typed by hand.
import { getByPointer, isObject, type JsonObject } from './json-pointer.js';

/**
 * What one field of the error body must say, where the description states it (x-svc-detail-rules):
 * `names: 'required-scope'`, one of the scopes the operation requires (any reading of an
 * ambiguous one); `names: 'failing-value'`, the value the request sent that names no resource;
 * `names: 'failing-field'`, a field of the body the request sent (the one the server refuses, as
 * an unknown field is); `contains`, the text given; with `optional`, only where the body has the
 * field (a code's meaning gives a next step, which an optional suggestion, where given, says).
 * `says` is the description's sentence.
 */
export interface DetailRule {
  field: string;
  names?: 'required-scope' | 'failing-value' | 'failing-field';
  contains?: string;
  optional?: boolean;
  says: string;
}

export interface CatalogueEntry {
  code: string;
  status: number;
  type: string;
  description: string;
  suggestion?: string;
  /** Only where the contract states it; see {@link isRetryable} for the rule used otherwise. */
  retryable?: boolean;
  /** API-wide codes (ENDPOINT_NOT_FOUND, METHOD_NOT_ALLOWED) hold for every path and method. */
  apiWide: boolean;
  /** What fields of the error body must say (x-svc-detail-rules); empty where the description states nothing. */
  detailRules: DetailRule[];
  /** The honesty markers of the code's x-svc-codes entry, for readers that show them (the docs). */
  unspecified?: string;
  inferred?: string;
}

export type Catalogue = ReadonlyMap<string, CatalogueEntry>;

const NAMES: readonly string[] = ['required-scope', 'failing-value', 'failing-field'];

/** A code's x-svc-detail-rules, checked for shape (a malformed one is a contract bug). */
function detailRulesOf(code: string, raw: unknown): DetailRule[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new Error(`Catalogue entry ${code}: x-svc-detail-rules must be a list.`);
  return raw.map((rule, i) => {
    const ok =
      isObject(rule) &&
      typeof rule.field === 'string' &&
      typeof rule.says === 'string' &&
      (rule.optional === undefined || (typeof rule.optional === 'boolean' && typeof rule.contains === 'string')) &&
      NAMES.includes(rule.names as string) !== (typeof rule.contains === 'string');
    if (!ok)
      throw new Error(
        `Catalogue entry ${code}: x-svc-detail-rules[${i}] needs field, says and either names (${NAMES.join(', ')}) or contains (with optional, a boolean, if any).`,
      );
    return rule as unknown as DetailRule;
  });
}

export function readCatalogue(bundle: JsonObject): Catalogue {
  const errorCode = getByPointer(bundle, '#/components/schemas/ErrorCode');
  if (!isObject(errorCode) || !Array.isArray(errorCode.enum) || !isObject(errorCode['x-svc-codes'])) {
    throw new Error('The bundle has no components.schemas.ErrorCode catalogue (an enum with x-svc-codes).');
  }
  const facts = errorCode['x-svc-codes'];
  const descriptions = Array.isArray(errorCode['x-enum-descriptions']) ? errorCode['x-enum-descriptions'] : [];
  const catalogue = new Map<string, CatalogueEntry>();
  for (const [index, code] of errorCode.enum.entries()) {
    if (typeof code !== 'string') continue;
    const fact = facts[code];
    const entry: JsonObject = isObject(fact) ? fact : {};
    const meaning = descriptions[index];
    const status = entry['x-svc-status'];
    const type = entry['x-svc-error-type'];
    if (typeof status !== 'number' || typeof type !== 'string') {
      throw new Error(`Catalogue entry ${code} lacks x-svc-status or x-svc-error-type.`);
    }
    catalogue.set(code, {
      code,
      status,
      type,
      description: typeof meaning === 'string' ? meaning : code,
      ...(typeof entry['x-svc-suggestion'] === 'string' ? { suggestion: entry['x-svc-suggestion'] } : {}),
      ...(typeof entry['x-svc-retryable'] === 'boolean' ? { retryable: entry['x-svc-retryable'] } : {}),
      apiWide: entry['x-svc-api-wide'] === true,
      detailRules: detailRulesOf(code, entry['x-svc-detail-rules']),
      ...(typeof entry['x-svc-unspecified'] === 'string' ? { unspecified: entry['x-svc-unspecified'] } : {}),
      ...(typeof entry['x-svc-inferred'] === 'string' ? { inferred: entry['x-svc-inferred'] } : {}),
    });
  }
  return catalogue;
}

/** ErrorType's x-svc-status-of-type: the HTTP statuses each error type may carry. */
export function readStatusesOfType(bundle: JsonObject): ReadonlyMap<string, readonly number[]> {
  const errorType = getByPointer(bundle, '#/components/schemas/ErrorType');
  const map = isObject(errorType) ? errorType['x-svc-status-of-type'] : undefined;
  if (!isObject(map)) throw new Error('The bundle has no ErrorType x-svc-status-of-type.');
  const result = new Map<string, number[]>();
  for (const [type, statuses] of Object.entries(map)) {
    result.set(type, Array.isArray(statuses) ? statuses.filter((s): s is number => typeof s === 'number') : []);
  }
  return result;
}

/**
 * The catalogue's x-svc-retryable where given; otherwise the description's rule: rate-limit
 * errors are always retryable, server errors are worth a retry, everything else is not.
 */
export function isRetryable(entry: CatalogueEntry): boolean {
  if (entry.retryable !== undefined) return entry.retryable;
  return entry.type === 'rate_limit_error' || entry.status >= 500;
}
