// The search rules of the description (INVALID_SEARCH_QUERY: "search needs at least one
// alphanumeric character; special characters are stripped; words combined with AND and
// prefix-matched"), sent as searches whose outcome an answer can show. The conversation list shows
// its entries (contact_number, contacts, last_item), so there what a search found is read: a
// prefix of a word an entry shows finds it, so do special characters around that word, and a
// second word that matches nothing leaves no entry. The item search's answer has no shape shown, so
// there only item ids anywhere in it are read: a prefix of a word that found an item, and the word
// wrapped in special characters, find an item; two words of which one is in no item find none.
// Both refuse a query of special characters only. Which fields a search matches is not shown
// (x-svc-unspecified), so the words come from every field the entry shows, tried in turn.
import { idPrefixes, isObject, type Operation } from '@svc/spec-runtime';
import { type Expected, expectedFor, type OpRequest } from '../expectations/expect.js';
import type { Exchange } from '../http/exchange.js';
import { loadSpec } from '../spec.js';
import { type CheckContext, contractOperation, type Problem, rule } from './harness.js';
import { errorsOf, isSuccess, statusIs } from './problems.js';
import {
  ASCII_SPECIAL_ONLY,
  BLANKS_ONLY,
  contactsOf,
  entriesOf,
  entryWords,
  FIELDS,
  fieldWords,
  itemIdsIn,
  morePages,
  type Shown,
  type ShownWord,
  SPECIAL_ONLY,
  showsEntry,
  splitInside,
  valuesIn,
  wordNoTextHolds,
  wordsOf,
  wrapped,
} from './search-words.js';
import { ok } from './support.js';

const SEARCH_RULES =
  'INVALID_SEARCH_QUERY: "search needs at least one alphanumeric character; special characters are stripped; words combined with AND and prefix-matched"';

const LIST = 'listConversations';
const ITEMS = 'searchConversationItems';
const q = (text: string) => JSON.stringify(text);

/** The error the contract gives a query of ASCII special characters only: the same rule for any special character. */
function specialOnlyError(t: CheckContext, op: Operation, request: OpRequest): Expected {
  return (
    expectedFor(t.spec, op, request) ??
    t.skip(`${op.operationId}: the contract no longer refuses special characters only`)
  );
}

interface Probe {
  query: string;
  what: string;
  exchange: Exchange;
}

interface ListSearch {
  specialOnly: Probe & { expected: Expected };
  blanksOnly: Probe;
  /** The entry searched for, by its contact number. */
  contact?: string;
  /** The whole words it shows, searched one field after the other until one found it. */
  tried: Array<ShownWord & { exchange: Exchange; shown: Shown }>;
  anchor?: ShownWord;
  /** Searches that must find the entry the anchor found. */
  finds: Probe[];
  /** The anchor and a word no text holds: must find no entry. */
  findsNothing?: Probe;
  /** The anchor less its first letter (two from six letters on): words are prefix-matched, so it finds the entry only through another word it starts. */
  inside?: Probe;
  /** A search that found several entries on one page, read again a page of one entry at a time. */
  paged?: { query: string; found: string[]; pages: Exchange[] };
}

/** Most pages of one entry read of a search that found several. */
const PAGES_READ = 4;

/**
 * A prefix that words of several entries start with, in the field the anchor was found by (words
 * are prefix-matched, so a search for it finds them all): the longest of three letters or fewer,
 * then the one most entries share.
 */
function sharedPrefix(page: Exchange, field: string): string | undefined {
  for (const length of [3, 2, 1]) {
    const counts = new Map<string, number>();
    for (const entry of entriesOf(page)) {
      const words = fieldWords(entry).find((f) => f.field === field)?.words ?? [];
      for (const prefix of new Set(
        words.filter((w) => w.length >= length).map((w) => w.slice(0, length).toLowerCase()),
      ))
        counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
    }
    const [best] = [...counts.entries()].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1]);
    if (best) return best[0];
  }
  return undefined;
}

/**
 * A search that found several entries in one page, read a page of one entry at a time: each page
 * holds an entry the search found, a different one each time (the pages of one result; a server
 * that drops the search after page 1 shows the unsearched list there).
 */
async function pagedSearch(t: CheckContext, probes: readonly Probe[]): Promise<ListSearch['paged']> {
  const several = probes.find((p) => ok(p.exchange) && contactsOf(p.exchange).length >= 2 && !morePages(p.exchange));
  if (!several) return undefined;
  const found = contactsOf(several.exchange);
  const pages: Exchange[] = [];
  for (let page = 1; page <= Math.min(found.length, PAGES_READ); page++)
    pages.push(await t.call({ query: { search: several.query, size: '1', page: String(page) } }, {}, LIST));
  return { query: several.query, found, pages };
}

function pagedProblems({ paged }: ListSearch): Problem[] {
  if (!paged) return [];
  const seen = new Set<string>();
  return paged.pages.flatMap((page, i) => {
    const [contact] = contactsOf(page);
    const problems = statusIs(page, isSuccess, `search ${q(paged.query)}, page ${i + 1} of size 1`);
    if (problems.length > 0) return problems;
    const why =
      contact === undefined
        ? 'holds no entry'
        : !paged.found.includes(contact)
          ? `holds ${contact}, which the same search in one page did not find (${paged.found.join(', ')})`
          : seen.has(contact)
            ? `holds ${contact} again, an entry of an earlier page`
            : undefined;
    if (contact !== undefined) seen.add(contact);
    return why ? [{ message: `search ${q(paged.query)}, page ${i + 1} of size 1, ${why}`, exchange: page }] : [];
  });
}

/** Whether any text of an entry, at any depth, holds a word starting with `start` (letters and digits compared, any case). */
function startsAWord(entry: unknown, start: string): boolean {
  const fold = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  const wanted = fold(start);
  for (const value of valuesIn(entry))
    if (typeof value === 'string' && value.split(/[^\p{L}\p{N}]+/u).some((w) => fold(w).startsWith(wanted)))
      return true;
  return false;
}

const searchList = (t: CheckContext, search: string) =>
  t.call({ query: { search, size: t.spec.pageSizeMax } }, {}, LIST);

/** The entry to search for: the first whose words start with a contact name, else the first with any word. */
function entryToFind(page: Exchange): { contact: string; words: ShownWord[] } | undefined {
  const entries = entriesOf(page)
    .filter((e) => typeof e.contact_number === 'string')
    .map((e) => ({ contact: e.contact_number as string, words: entryWords(e) }))
    .filter((e) => e.words.length > 0);
  return entries.find((e) => e.words[0]?.field === 'a contact name') ?? entries[0];
}

async function searchConversations(t: CheckContext): Promise<ListSearch> {
  const expected = specialOnlyError(t, t.op(LIST), { query: { search: ASCII_SPECIAL_ONLY } });
  const special = { query: SPECIAL_ONLY, what: 'special characters only', expected };
  const state: ListSearch = {
    specialOnly: { ...special, exchange: await searchList(t, SPECIAL_ONLY) },
    blanksOnly: { query: BLANKS_ONLY, what: 'blanks only', exchange: await searchList(t, BLANKS_ONLY) },
    tried: [],
    finds: [],
  };
  const firstPage = await t.call({ query: { size: t.spec.pageSizeMax } }, {}, LIST);
  const target = entryToFind(firstPage);
  if (!target) return state;
  state.contact = target.contact;
  for (const candidate of target.words) {
    const exchange = await searchList(t, candidate.word);
    const shown = showsEntry(exchange, target.contact);
    state.tried.push({ ...candidate, exchange, shown });
    if (shown === 'shown') state.anchor = candidate;
    if (shown === 'shown' || !ok(exchange)) break;
  }
  if (!state.anchor) return state;
  const { word } = state.anchor;
  for (const [query, what] of [
    [word.slice(0, -1), `a prefix of ${q(word)}`],
    [wrapped(word), `${q(word)} with special characters around it`],
  ] as const)
    state.finds.push({ query, what, exchange: await searchList(t, query) });
  const inside = insideOf(word);
  if (inside) state.inside = { ...inside, exchange: await searchList(t, inside.query) };
  const both = `${word} ${wordNoTextHolds(t.config.runId)}`;
  state.findsNothing = {
    query: both,
    what: `${q(word)} and a word no entry holds`,
    exchange: await searchList(t, both),
  };
  const anchorProbe = state.tried.find((w) => w.word === word);
  const probes: Probe[] = [
    ...state.finds,
    ...(anchorProbe ? [{ query: word, what: q(word), exchange: anchorProbe.exchange }] : []),
  ];
  // A prefix entries share, field by field (the anchor's first), until a search finds several.
  for (const field of new Set([state.anchor.field, ...FIELDS])) {
    if (probes.some((p) => ok(p.exchange) && contactsOf(p.exchange).length >= 2)) break;
    const shared = sharedPrefix(firstPage, field);
    if (shared) probes.push({ query: shared, what: q(shared), exchange: await searchList(t, shared) });
  }
  const paged = await pagedSearch(t, probes);
  return paged ? { ...state, paged } : state;
}

function anchorProblems({ contact, tried, anchor }: ListSearch): Problem[] {
  const refused = tried.flatMap((w) =>
    statusIs(w.exchange, isSuccess, `search ${q(w.word)} (a word of ${w.field} of ${contact})`),
  );
  const last = tried.at(-1);
  if (refused.length > 0 || anchor || !last || tried.some((w) => w.shown !== 'absent')) return refused;
  const words = tried.map((w) => `${q(w.word)} (${w.field})`).join(', ');
  return [
    {
      message: `no word the entry of ${contact} shows found it: ${words} each answered without it (which fields a search matches is not shown, but it matches words, and the entry shows no others)`,
      exchange: last.exchange,
    },
  ];
}

function listSearchProblems(s: ListSearch): Problem[] {
  const { specialOnly, blanksOnly, contact = '', finds, findsNothing } = s;
  const problems = [
    ...pagedProblems(s),
    ...[specialOnly, blanksOnly].flatMap(({ exchange, query, what }) =>
      errorsOf(exchange, specialOnly.expected, `search ${q(query)} (${what})`),
    ),
    ...anchorProblems(s),
  ];
  for (const { query, what, exchange } of finds) {
    const refused = statusIs(exchange, isSuccess, `search ${q(query)} (${what})`);
    problems.push(...refused);
    if (refused.length === 0 && showsEntry(exchange, contact) === 'absent')
      problems.push({
        message: `search ${q(query)} (${what}, which found ${contact}) answered without it: special characters are stripped and words prefix-matched`,
        exchange,
      });
  }
  problems.push(...insideProblems(s));
  if (findsNothing) {
    const { query, what, exchange } = findsNothing;
    const refused = statusIs(exchange, isSuccess, `search ${q(query)} (${what})`);
    const listed = entriesOf(exchange).map((e) => String(e.contact_number));
    problems.push(...refused);
    if (refused.length === 0 && listed.length > 0)
      problems.push({
        message: `search ${q(query)} (${what}) listed ${listed.slice(0, 5).join(', ')}: words are combined with AND`,
        exchange,
      });
  }
  return problems;
}

/** The entry found by the inside of a word only where it holds a word starting with it: words are prefix-matched. */
function insideProblems({ inside, contact }: ListSearch): Problem[] {
  if (!inside || !ok(inside.exchange)) return [];
  const entry = entriesOf(inside.exchange).find((e) => e.contact_number === contact);
  return entry && !startsAWord(entry, inside.query)
    ? [
        {
          message: `search ${q(inside.query)} (${inside.what}) listed ${contact}, which shows no word starting with it: words are prefix-matched, not found inside a word`,
          exchange: inside.exchange,
        },
      ]
    : [];
}

function listSearchNotReached({ contact, tried, anchor, finds }: ListSearch): string | undefined {
  if (contact === undefined) return 'the conversation list shows no entry with a word to search for';
  if (!anchor)
    return `the searches for ${tried.map((w) => q(w.word)).join(', ')} listed more than a page, none showing ${contact}`;
  const unseen = finds.filter((p) => showsEntry(p.exchange, contact) === 'beyond the page');
  return unseen.length > 0
    ? `the searches ${unseen.map((p) => q(p.query)).join(', ')} listed more than a page without ${contact} on the first`
    : undefined;
}

rule({
  id: 'conversations.search',
  title:
    'The conversation list searched: a word an entry shows, a prefix of it, and the word with special characters around it find the entry; the word less its first letters finds it only where it starts another word the entry shows; the word and a word no entry holds find none; special characters only, and blanks only, are 400 INVALID_SEARCH_QUERY; a search that finds several entries, read a page of one entry at a time, holds on each page a different entry it found',
  source: `GET /v2/api/conversations: "optional line filter and search"; ${SEARCH_RULES}. Which fields the search matches is not shown (x-svc-unspecified): the words come from each field the entry shows, in turn`,
  precondition:
    "an entry of the conversation list found by a search for a whole word it shows (a contact's name, else the company's, the last item's summary, the contact number), and a search of non-ASCII special characters only, which the contract's pattern lets through, and one of blanks only; a search finding several entries in one page (a prefix entries share), then read a page of size 1 at a time",
  operationId: LIST,
  resource: loadSpec().resourceOf(contractOperation(LIST)),
  needs: { stateful: true },
  requests: searchConversations,
  problems: listSearchProblems,
  notReached: listSearchNotReached,
  passed: ({ anchor, contact, specialOnly }) =>
    `${q(anchor?.word ?? '')} (${anchor?.field}) found ${contact}, and so did a prefix of it and the word wrapped in special characters; with a word no entry holds it found none; ${q(specialOnly.query)}: ${specialOnly.exchange.status}`,
});

interface ItemSearch {
  specialOnly: { exchange: Exchange; expected: Expected };
  blanksOnly: Exchange;
  prefixes: string[];
  /** A word of a last item's summary (the conversation list shows it), that item, and the item as the list shows it. */
  word?: { word: string; item: string; shown: Record<string, unknown> };
  alone?: Exchange;
  /** A prefix of the word, and the word wrapped in special characters: each must find the item the word found. */
  finds: Probe[];
  /** The word less its first letters: the item only where it shows a word starting with them. */
  inside?: Probe;
  both?: Probe;
}

/** A word of the summary of the first last item that shows one, with the item's id. */
function summaryWord(page: Exchange): ItemSearch['word'] {
  for (const entry of entriesOf(page)) {
    const item = isObject(entry.last_item) ? entry.last_item : {};
    const [word] = wordsOf(item.summary);
    if (word !== undefined && typeof item.id === 'string') return { word, item: item.id, shown: item };
  }
  return undefined;
}

async function searchItems(t: CheckContext): Promise<ItemSearch> {
  const expected = specialOnlyError(t, t.op(), { body: { query: ASCII_SPECIAL_ONLY } });
  const state: ItemSearch = {
    specialOnly: { exchange: await t.call({ body: { query: SPECIAL_ONLY } }), expected },
    blanksOnly: await t.call({ body: { query: BLANKS_ONLY } }),
    prefixes: idPrefixes(t.spec.schema('ConversationItemId') ?? {}),
    finds: [],
  };
  const found = summaryWord(await t.call({ query: { size: t.spec.pageSizeMax } }, {}, LIST));
  if (!found) return state;
  const query = `${found.word} ${wordNoTextHolds(t.config.runId)}`;
  const alone = await t.call({ body: { query: found.word } });
  const finds: Probe[] = [];
  if (itemIdsIn(alone.body, state.prefixes).includes(found.item))
    for (const [variant, what] of [
      [found.word.slice(0, -1), `a prefix of ${q(found.word)}`],
      [wrapped(found.word), `${q(found.word)} with special characters around it`],
      [splitInside(found.word), `${q(found.word)} with a special character inside it (stripped, not a word break)`],
    ] as const)
      if (variant !== undefined)
        finds.push({ query: variant, what, exchange: await t.call({ body: { query: variant } }) });
  const inside = insideOf(found.word);
  return {
    ...state,
    word: found,
    alone,
    finds,
    ...(inside ? { inside: { ...inside, exchange: await t.call({ body: { query: inside.query } }) } } : {}),
    both: { query, what: `${q(found.word)} and a word no item holds`, exchange: await t.call({ body: { query } }) },
  };
}

/** The word less its first letter (two, from six letters), where four letters at least are left to search. */
function insideOf(word: string): { query: string; what: string } | undefined {
  if (word.length < 4) return undefined;
  const cut = word.length >= 6 ? 2 : 1;
  return { query: word.slice(cut), what: `${q(word)} less its first ${cut === 1 ? 'letter' : 'two letters'}` };
}

/** The item found by the inside of its word only where it shows a word starting with it: words are prefix-matched. */
function itemInsideProblems({ inside, word, prefixes }: ItemSearch): Problem[] {
  if (!inside || !word || !ok(inside.exchange)) return [];
  const found = itemIdsIn(inside.exchange.body, prefixes).includes(word.item);
  return found && !startsAWord(word.shown, inside.query)
    ? [
        {
          message: `query ${q(inside.query)} (${inside.what}) answered ${word.item}, which shows no word starting with it: words are prefix-matched, not found inside a word`,
          exchange: inside.exchange,
        },
      ]
    : [];
}

/**
 * A search that must find the item the word alone found: refused, or answering no item at all, it
 * fails; answering other items only, the item may be past the answer's first page (its shape is not
 * shown), so nothing is concluded (itemSearchNotReached says so).
 */
function variantProblems({ prefixes, word, finds }: ItemSearch): Problem[] {
  return finds.flatMap(({ query, what, exchange }) => {
    const refused = statusIs(exchange, isSuccess, `query ${q(query)} (${what})`);
    if (refused.length > 0) return refused;
    return itemIdsIn(exchange.body, prefixes).length === 0
      ? [
          {
            message: `query ${q(query)} (${what}, which found ${word?.item}) answered no item: special characters are stripped and words prefix-matched`,
            exchange,
          },
        ]
      : [];
  });
}

function itemSearchProblems(s: ItemSearch): Problem[] {
  const { specialOnly, blanksOnly, prefixes, word, alone, both } = s;
  const problems = [
    ...errorsOf(specialOnly.exchange, specialOnly.expected, `query ${q(SPECIAL_ONLY)} (special characters only)`),
    ...errorsOf(blanksOnly, specialOnly.expected, `query ${q(BLANKS_ONLY)} (blanks only)`),
  ];
  if (alone) problems.push(...statusIs(alone, isSuccess, `query ${q(word?.word ?? '')} (a word of ${word?.item})`));
  problems.push(...variantProblems(s), ...itemInsideProblems(s));
  if (!both) return problems;
  const refused = statusIs(both.exchange, isSuccess, `query ${q(both.query)} (${both.what})`);
  const shown = itemIdsIn(both.exchange.body, prefixes);
  problems.push(...refused);
  if (refused.length === 0 && shown.length > 0)
    problems.push({
      message: `query ${q(both.query)} (${both.what}) answered items ${shown.slice(0, 5).join(', ')}: words are combined with AND`,
      exchange: both.exchange,
    });
  return problems;
}

rule({
  id: 'conversation-items.search',
  title:
    'The item search for a prefix of a word of an item, for the word wrapped in special characters, and for the word with one inside it (stripped, the word again), answers an item; for the word less its first letters, not that item unless it shows a word starting with them; for the word and a word no item holds, none; special characters only, and blanks only, are 400 INVALID_SEARCH_QUERY; a search that finds several entries, read a page of one entry at a time, holds on each page a different entry it found',
  source: `POST /v2/api/conversations/items/search: "Keyword search of items"; ${SEARCH_RULES}. The answer's shape is not shown: an item is any value with an item id prefix (cll-, msg-), wherever it is`,
  precondition:
    "a word of a last item's summary (the conversation list) whose search alone answers an item id, and a query of non-ASCII special characters only, which the contract's pattern lets through, and one of blanks only",
  operationId: ITEMS,
  resource: loadSpec().resourceOf(contractOperation(ITEMS)),
  needs: { stateful: true },
  requests: searchItems,
  problems: itemSearchProblems,
  notReached: ({ word, alone, prefixes, finds }) => {
    if (!word) return 'the conversation list shows no last item with a word in its summary';
    if (alone && itemIdsIn(alone.body, prefixes).length === 0)
      return `the search for ${q(word.word)} (a word of the summary of ${word.item}) answered no item (which fields the item search matches is not shown)`;
    const unseen = finds.filter((p) => {
      const ids = itemIdsIn(p.exchange.body, prefixes);
      return ids.length > 0 && !ids.includes(word.item);
    });
    return unseen.length > 0
      ? `the searches ${unseen.map((p) => q(p.query)).join(', ')} answered other items, not ${word.item} (which may be past the first page: the answer's shape is not shown)`
      : undefined;
  },
  passed: ({ both, specialOnly, finds, word }) =>
    `${finds.map((p) => q(p.query)).join(' and ')} found ${word?.item}; ${q(both?.query ?? '')} answered no item; ${q(SPECIAL_ONLY)}: ${specialOnly.exchange.status}`,
});
