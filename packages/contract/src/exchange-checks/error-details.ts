// response.error-details: what the description says a field of an error body says, where it says
// it, read from the catalogue's x-svc-detail-rules (through spec-runtime), never typed here: the
// message of API_KEY_INSUFFICIENT_SCOPE names the scope the operation requires (any of its
// readings where it has several; where the scope itself is only inferred, any scope of the
// contract, since which one is missing is not known), the
// suggestion of INVALID_PHONE_FORMAT names E.164 (in any case and punctuation: E164 too). Applied to every error the suite receives.
import type { DetailRule, Operation } from '@svc/spec-runtime';
import { isScopeInferred } from '@svc/spec-runtime/facts';
import { type Exchange, errorOf } from '../http/exchange.js';
import type { Spec } from '../spec.js';

/** The text names the word as a whole token (CONTACTS_READ is not named by CONTACTS_READ_WRITE). */
function namesToken(text: string, token: string): boolean {
  let at = text.indexOf(token);
  const partOfWord = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_]/.test(c);
  while (at >= 0) {
    if (!partOfWord(text[at - 1]) && !partOfWord(text[at + token.length])) return true;
    at = text.indexOf(token, at + 1);
  }
  return false;
}

/** The scopes any reading of the operation's security requires; every scope of the contract where it is only inferred. */
function requiredScopes(spec: Spec, op: Operation | null): string[] {
  if (!op || op.security.length === 0) return [];
  if (isScopeInferred(op)) return Object.keys(spec.contract.scopes);
  return [...new Set(op.security.flat())];
}

/** Letters and digits only, lower case: "E.164", "e164" and "E-164" read the same. */
const spelling = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

function ruleProblem(spec: Spec, rule: DetailRule, value: unknown, op: Operation | null): string | undefined {
  const stated = `the description says: "${rule.says}"`;
  if (rule.contains !== undefined) {
    if (typeof value === 'string' && spelling(value).includes(spelling(rule.contains))) return undefined;
    return `error.${rule.field} ${JSON.stringify(value ?? null)} does not name ${rule.contains} (${stated})`;
  }
  const scopes = requiredScopes(spec, op);
  if (scopes.length === 0) return undefined;
  if (typeof value === 'string' && scopes.some((scope) => namesToken(value, scope))) return undefined;
  const wanted = op && isScopeInferred(op) ? 'any scope (its own is only inferred)' : scopes.join(' or ');
  return `error.${rule.field} ${JSON.stringify(value ?? null)} does not name the scope ${op?.operationId} requires, ${wanted} (${stated})`;
}

/** undefined where no rule applies to the response; else its problems (empty: it says what it must). */
export function errorDetailProblems(spec: Spec, exchange: Exchange): string[] | undefined {
  const error = errorOf(exchange);
  if (!error || exchange.status < 400 || typeof error.code !== 'string') return undefined;
  const rules = spec.contract.catalogue.get(error.code)?.detailRules ?? [];
  if (rules.length === 0) return undefined;
  return rules.flatMap((rule) => ruleProblem(spec, rule, error[rule.field], exchange.operation) ?? []);
}
