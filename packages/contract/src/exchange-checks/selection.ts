// response.selection: a read that selects what it answers by a parameter (the notes of a
// conversation, a thread by id, the thread of an item, a note by id) answers only what was
// selected: where the answer's entries (or its single resource) carry a field of the same name
// as a path or query parameter of the request, that field holds the value sent. "Lists a
// conversation's notes" (each note's contact_number is the conversation's), "GET /v2/api/threads
// finds the thread of an item by query parameters entity_type and entity_id", a read by id
// answers that id. And a page of conversations shows each entry's own last item: an item belongs
// to the one conversation of its contact number, so two entries of different contact_number never
// show the same last_item id. Only reads (GET) and successes; bounded: at most one page of entries.
import { isObject, type Operation } from '@svc/spec-runtime';
import { dataOf, type Exchange } from '../http/exchange.js';

/** Most entries of a list answer looked at (the documented page size limit). */
const MAX_ENTRIES = 100;

/** The path parameters of the request, decoded, by the operation's path template (undefined: no match). */
export function pathParameters(op: Operation, path: string): Record<string, string> | undefined {
  const template = op.path.split('/');
  const sent = (path.split('?')[0] ?? '').split('/');
  if (template.length !== sent.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of template.entries()) {
    const value = sent[i] ?? '';
    const name = /^\{([^}]+)\}$/.exec(part)?.[1];
    if (name === undefined) {
      if (part !== value) return undefined;
      continue;
    }
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return params;
}

/** The documented parameters the request sent, by name: path ones and the query ones the operation lists. */
function selectors(op: Operation, exchange: Exchange): Array<[string, string]> {
  const query = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  const sentQuery = Object.entries(exchange.request.query ?? {}).filter(([name]) => query.has(name));
  return [...Object.entries(pathParameters(op, exchange.request.path) ?? {}), ...sentQuery];
}

/** Entries of different contact_number showing the same last_item id (an item is of one conversation). */
function sharedLastItems(entries: ReadonlyArray<Record<string, unknown>>): string[] {
  const numberOf = new Map<string, string>();
  const problems: string[] = [];
  for (const { contact_number: number, last_item: item } of entries) {
    if (typeof number !== 'string' || !isObject(item) || typeof item.id !== 'string') continue;
    const first = numberOf.get(item.id);
    if (first === undefined) numberOf.set(item.id, number);
    else if (first !== number)
      problems.push(
        `the conversations of ${first} and ${number} both show last_item ${item.id}: an item is of one conversation`,
      );
  }
  return problems;
}

/** The problems of a read's answer against what its parameters selected (undefined: nothing to compare). */
export function selectionProblems(exchange: Exchange): string[] | undefined {
  const op = exchange.operation;
  if (op?.method !== 'GET' || exchange.status < 200 || exchange.status >= 300) return undefined;
  const data = dataOf(exchange);
  const entries = (Array.isArray(data) ? data.slice(0, MAX_ENTRIES) : [data]).filter(isObject);
  const conversations = entries.filter((e) => typeof e.contact_number === 'string' && isObject(e.last_item));
  const compared = selectors(op, exchange).filter(([name]) => entries.some((e) => typeof e[name] === 'string'));
  if (compared.length === 0 && conversations.length < 2) return undefined;
  return [
    ...compared.flatMap(([name, value]) =>
      entries
        .filter((e) => typeof e[name] === 'string' && e[name] !== value)
        .map((e) => {
          const which = typeof e.id === 'string' ? `${e.id}` : 'an entry';
          return `${name} ${JSON.stringify(value)} was selected, but ${which} has ${name} ${JSON.stringify(e[name])}`;
        }),
    ),
    ...sharedLastItems(conversations),
  ];
}
