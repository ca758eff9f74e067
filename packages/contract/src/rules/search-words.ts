// What the search checks send and read. The description's search rules (INVALID_SEARCH_QUERY:
// "search needs at least one alphanumeric character; special characters are stripped; words
// combined with AND and prefix-matched") are tried with words the server itself shows, a word no
// text can hold, and special characters. Which fields a search matches is not shown, so the words
// come from every field an answer shows, never from one reading of it.
import { isObject } from '@svc/spec-runtime';
import { dataOf, type Exchange } from '../http/exchange.js';

/**
 * Special characters only, none of them ASCII: the contract's pattern (a portable approximation
 * that knows ASCII punctuation only) lets it through, so the server's own rule must refuse it.
 */
export const SPECIAL_ONLY = '«¿…—»';

/** Blanks only (spaces and a tab): no alphanumeric character either, though a server that trims first sees no search at all. */
export const BLANKS_ONLY = '  \t ';

/** ASCII special characters only: the contract's pattern refuses these, which gives the expected error. */
export const ASCII_SPECIAL_ONLY = '!?';

/** A word as the checks search for it: letters and digits only (nothing to strip), of a useful length. */
const WORD = /^[\p{L}\p{N}]{3,40}$/u;

/** At most this many characters of a shown text are split into words. */
const TEXT_READ = 2000;

/** The words of a shown text that need no stripping, in order. */
export function wordsOf(text: unknown): string[] {
  return typeof text === 'string'
    ? text
        .slice(0, TEXT_READ)
        .split(/\s+/)
        .filter((w) => WORD.test(w))
    : [];
}

/** A word no text can hold: letters and digits of the run's id behind a prefix no language starts a word with. */
export function wordNoTextHolds(runId: string): string {
  return `qzxj${runId.replace(/[^A-Za-z0-9]/g, '')}q7`;
}

/** A word with a special character inside it (where it has four characters or more): stripped, it is the word again. */
export function splitInside(word: string): string | undefined {
  if (word.length < 4) return undefined;
  const half = Math.floor(word.length / 2);
  return `${word.slice(0, half)}&${word.slice(half)}`;
}

/** The query with special characters around a word: stripped, it is the word again. */
export function wrapped(word: string): string {
  return `(«${word}»)!`;
}

/** A candidate word of a list entry, and the field it was shown in. */
export interface ShownWord {
  field: string;
  word: string;
}

/**
 * The first word of each field a conversation list entry shows, in the order tried: a contact's
 * name, a contact's company, the last item's summary, the contact number (its digits).
 */
export function entryWords(entry: Record<string, unknown>): ShownWord[] {
  return fieldWords(entry).flatMap(({ field, words: [word] }) => (word === undefined ? [] : [{ field, word }]));
}

/** The fields of a conversation list entry whose words a search may match, in the order tried. */
export const FIELDS = ['a contact name', "a contact's company name", "the last item's summary", 'the contact number'];

/** Every word of each field a conversation list entry shows, in the order entryWords tries them. */
export function fieldWords(entry: Record<string, unknown>): Array<{ field: string; words: string[] }> {
  const contacts = Array.isArray(entry.contacts) ? entry.contacts.filter(isObject) : [];
  const lastItem = isObject(entry.last_item) ? entry.last_item : {};
  const number = typeof entry.contact_number === 'string' ? entry.contact_number.replace(/^\+/, '') : undefined;
  const texts: unknown[][] = [
    contacts.map((c) => c.name),
    contacts.map((c) => (isObject(c.company) ? c.company.name : undefined)),
    [lastItem.summary],
    [number],
  ];
  return FIELDS.map((field, i) => ({ field, words: (texts[i] ?? []).flatMap(wordsOf) }));
}

/** The entries of a list answer (its data array), objects only. */
export function entriesOf(exchange: Exchange): Array<Record<string, unknown>> {
  const data = dataOf(exchange);
  return Array.isArray(data) ? data.filter(isObject) : [];
}

/** Whether a list answer shows the entry of a contact number: on its page, not on it, or maybe beyond it (has_more). */
export type Shown = 'shown' | 'absent' | 'beyond the page';

export function showsEntry(exchange: Exchange, contact: string): Shown {
  if (entriesOf(exchange).some((e) => e.contact_number === contact)) return 'shown';
  return morePages(exchange) ? 'beyond the page' : 'absent';
}

/** The contact numbers of a list answer's entries, in its order. */
export function contactsOf(exchange: Exchange): string[] {
  return entriesOf(exchange)
    .map((e) => e.contact_number)
    .filter((c): c is string => typeof c === 'string');
}

/** A list answer whose pagination says more follows (`pagination.has_more` true). */
export function morePages(exchange: Exchange): boolean {
  const pagination = (exchange.body as { pagination?: unknown } | undefined)?.pagination;
  return isObject(pagination) && pagination.has_more === true;
}

/** At most this many JSON values of an answer are looked at, whatever its shape. */
const MAX_NODES = 20_000;

/**
 * Every JSON value an answer carries, itself included, depth first: for answers whose shape is not
 * shown, where what a rule judges may sit anywhere. Bounded by MAX_NODES values.
 */
export function* valuesIn(body: unknown): Generator<unknown> {
  const stack: unknown[] = [body];
  let budget = MAX_NODES;
  while (stack.length > 0 && budget > 0) {
    const node = stack.pop();
    budget--;
    yield node;
    const children = Array.isArray(node) ? node : isObject(node) ? Object.values(node) : [];
    for (const child of children.slice(0, budget)) stack.push(child);
  }
}

/**
 * The item ids an answer carries anywhere (strings with an item id prefix), whatever its shape:
 * the shape of the item search's answer is not shown.
 */
export function itemIdsIn(body: unknown, prefixes: readonly string[]): string[] {
  const found = new Set<string>();
  for (const node of valuesIn(body))
    if (typeof node === 'string' && prefixes.some((p) => node.startsWith(p))) found.add(node.slice(0, 100));
  return [...found];
}
