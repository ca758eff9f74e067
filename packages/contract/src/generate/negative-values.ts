// The values the negatives generator breaks a request with: made-up ids and numbers that are
// recognisable in server logs and unlikely to exist, phone numbers out of E.164, a value outside
// an enum or a pattern, and the copy of a body with one value changed.
import { fieldName as fieldNameOf } from '@svc/spec-runtime';

/** The made-up values: recognisable in server logs, unlikely to exist. */
export const UNKNOWN_SUFFIX = '0svcContract404';
export const UNKNOWN_VALUE = 'svc-contract-unknown-404';
export const UNUSED_PHONE = '+15550000001';
export const WRONG_PREFIX = 'zzz-0svcContract';
/** After a prefix of a neighbouring kind (not- where cll- or msg- is taken): an id of that kind no resource has. */
export const NEIGHBOUR_SUFFIX = '0svcContract';
const NON_MATCHING = ['!!!', '-', ' ', '', '§'];
/** JSON cut short: no server can parse it, so even a write method cannot execute anything. */
export const MALFORMED_BODY = '{"svc_contract": ';

export type Path = Array<string | number>;

const clone = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

export const REMOVED = Symbol('removed');

/** A copy of `root` with the value at `path` set to `value` (REMOVED: deleted). */
export function setAt(root: unknown, path: Path, value: unknown): unknown {
  const copy = clone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const key = path[path.length - 1] as string | number;
  if (value === REMOVED) delete node[key];
  else node[key] = value;
  return copy;
}

/** The value at `path` (undefined where the path leads nowhere). */
function valueAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path)
    node = typeof node === 'object' && node !== null ? (node as Record<string | number, unknown>)[key] : undefined;
  return node;
}

/**
 * The body with the list entry that holds `path` sent again after the list's last, `value` at the
 * rest of the path in the copy: a rule on every entry, broken in a later one only. undefined where
 * the path is in no list.
 */
export function inLaterEntry(root: unknown, path: Path, value: unknown): { body: unknown; path: Path } | undefined {
  const at = path.findLastIndex((key) => typeof key === 'number');
  const list = at < 0 ? undefined : valueAt(root, path.slice(0, at));
  if (!Array.isArray(list)) return undefined;
  const later: Path = [...path.slice(0, at), list.length, ...path.slice(at + 1)];
  const grown = setAt(root, path.slice(0, at), [...list, list[path[at] as number]]);
  return { body: setAt(grown, later, value), path: later };
}

/** `options[0].label`: spec-runtime's name of a field, as its violations say it. */
export const fieldName = (path: Path) => fieldNameOf(path.map(String));

/** A value as a case's label shows it: long ones cut, with their length. */
export function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40
    ? `${text.slice(0, 30)}…(${typeof value === 'string' ? value.length : text.length} chars)`
    : text;
}

/** Phone numbers that are not E.164, made from a valid one: no +, spaces, dashes. */
export function phoneVariants(valid: string): string[] {
  const digits = valid.replace(/^\+/, '');
  return [
    digits,
    `+${digits.slice(0, 1)} ${digits.slice(1, 4)} ${digits.slice(4)}`,
    `+${digits.slice(0, 1)}-${digits.slice(1, 4)}-${digits.slice(4)}`,
  ];
}

/** A value outside the enum, in the enum's own case (so only membership is wrong). */
export function invalidEnumValue(values: unknown[]): string {
  const lower = values.every((v) => typeof v === 'string' && v === v.toLowerCase());
  return lower ? 'svc_contract_not_in_enum' : 'SVC_CONTRACT_NOT_IN_ENUM';
}

/**
 * A value of the enum in another case (READ as read), where the enum does not hold it too: an enum
 * is matched exactly, so a server that folds case accepts what the contract refuses.
 */
export function otherCaseEnumValue(values: unknown[]): string | undefined {
  for (const v of values) {
    if (typeof v !== 'string') continue;
    const other = v === v.toLowerCase() ? v.toUpperCase() : v.toLowerCase();
    if (other !== v && !values.includes(other)) return other;
  }
  return undefined;
}

/** Blanks of other kinds than a space: a server that takes only spaces as blank accepts them. */
const OTHER_BLANKS = '\t\n';

/**
 * Short strings the pattern refuses, if ours do (none for a pattern that is not valid here): the
 * first candidate it refuses and, where that is a blank, the other blanks too.
 */
export function nonMatching(pattern: string): string[] {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch {
    return [];
  }
  const first = NON_MATCHING.find((candidate) => !re.test(candidate));
  if (first === undefined) return [];
  return first === ' ' && !re.test(OTHER_BLANKS) ? [first, OTHER_BLANKS] : [first];
}
