// response.mentions: every note and comment the suite reads (not only those it wrote) has its
// mentions checked against the description's mention rules, as the spec encodes them: the schemas
// holding mentions carry x-svc-mentions (which field is the content, which lists the mentions),
// and the listed schema (NoteMention) carries the inline syntax (x-svc-inline-syntax). The users
// mentioned inline must be the users listed, by user_id (each at least once; the order and the
// display names are not stated). The syntax is read by spec-runtime's scanMentions, the sandbox's
// own reader: one pass, no pattern. The cost is bounded by bytes: contents longer than a note's
// documented maximum, and contents past a budget per response, are not scanned.
import { deref, idPrefixOf, isObject, type JsonObject } from '@svc/spec-runtime';
import { scanMentions } from '@svc/spec-runtime/facts';
import { dataOf, type Exchange } from '../http/exchange.js';
import type { Spec } from '../spec.js';

interface MentionHolder {
  content: string;
  listed: string;
}

interface MentionRules {
  holders: MentionHolder[];
  /** The UserId prefix the syntax names users by (`usr-`). */
  userPrefix: string;
  /** Longest content scanned (NoteContent maxLength). */
  maxContent: number;
}

/** Characters of content scanned per response at most, whatever the server sends. */
const BUDGET = 64 * 1024;
const rulesOf = new WeakMap<Spec, MentionRules | null>();

function readRules(spec: Spec): MentionRules | null {
  const components = spec.contract.bundle.components;
  const all = isObject(components) && isObject(components.schemas) ? components.schemas : {};
  const schemas = Object.values(all).filter(isObject);
  const holders: MentionHolder[] = [];
  let syntax = false;
  for (const schema of schemas) {
    const holder = schema['x-svc-mentions'];
    if (!isObject(holder) || typeof holder.content !== 'string' || typeof holder.listed !== 'string') continue;
    // Notes and comments name the same two fields: one holder each pair, so one object is read once.
    if (!holders.some((h) => h.content === holder.content && h.listed === holder.listed))
      holders.push({ content: holder.content, listed: holder.listed });
    const listed = isObject(schema.properties) ? schema.properties[holder.listed] : undefined;
    const items = isObject(listed) && isObject(listed.items) ? deref(spec.contract, listed.items as JsonObject) : {};
    const inline = items['x-svc-inline-syntax'];
    if (isObject(inline)) syntax = true;
  }
  if (holders.length === 0) return null;
  if (!syntax) throw new Error('x-svc-mentions: the listed schema carries no x-svc-inline-syntax.');
  const max = spec.schema('NoteContent')?.maxLength;
  return { holders, userPrefix: idPrefixOf(spec.contract, 'UserId'), maxContent: typeof max === 'number' ? max : 4000 };
}

function mentionRules(spec: Spec): MentionRules | null {
  if (!rulesOf.has(spec)) rulesOf.set(spec, readRules(spec));
  return rulesOf.get(spec) ?? null;
}

/** The notes and comments in a body: objects holding both fields a holder names, at any depth. */
function holdersIn(
  value: unknown,
  rules: MentionRules,
  found: Array<{ node: JsonObject; h: MentionHolder }>,
  depth = 0,
) {
  if (depth > 32) return;
  if (Array.isArray(value)) for (const v of value) holdersIn(v, rules, found, depth + 1);
  if (!isObject(value)) return;
  for (const h of rules.holders)
    if (typeof value[h.content] === 'string' && Array.isArray(value[h.listed])) found.push({ node: value, h });
  for (const v of Object.values(value)) holdersIn(v, rules, found, depth + 1);
}

function problemsOf(node: JsonObject, h: MentionHolder, userPrefix: string): string[] {
  const written = new Set(scanMentions(String(node[h.content]), userPrefix).map((m) => m.userId));
  const listed = new Set(
    (node[h.listed] as unknown[]).map((m) => (isObject(m) && typeof m.user_id === 'string' ? m.user_id : '')),
  );
  const who = typeof node.id === 'string' ? node.id : `a ${h.content}`;
  return [
    ...[...written]
      .filter((id) => !listed.has(id))
      .map((id) => `${who} mentions ${id} inline, but ${h.listed} does not list it`),
    ...[...listed]
      .filter((id) => !written.has(id))
      .map(
        (id) => `${who} lists ${id || 'an entry without user_id'} in ${h.listed}, but ${h.content} does not mention it`,
      ),
  ];
}

/** undefined where the response holds no note or comment; else its problems (empty: all agree). */
export function mentionProblems(spec: Spec, exchange: Exchange): string[] | undefined {
  const rules = mentionRules(spec);
  if (!rules || exchange.status < 200 || exchange.status >= 300) return undefined;
  const found: Array<{ node: JsonObject; h: MentionHolder }> = [];
  holdersIn(dataOf(exchange), rules, found);
  if (found.length === 0) return undefined;
  let budget = BUDGET;
  const problems: string[] = [];
  for (const { node, h } of found) {
    const length = String(node[h.content]).length;
    if (length > rules.maxContent || length > budget) continue;
    budget -= length;
    problems.push(...problemsOf(node, h, rules.userPrefix));
  }
  return problems;
}
