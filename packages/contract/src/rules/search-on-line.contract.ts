// GET /v2/api/conversations: "optional line filter and search". Given together, both narrow the
// list, each of them: a search that finds a contact's conversation on one line, sent with another
// line's filter where that contact has none, does not list it (the filter applies); and sent with
// its own line's filter, it lists that contact but no entry of the line the search alone does not
// find (the search applies). Reached with a contact listed on one line and absent from another
// line's whole list (one page at the largest size), and an entry of its line that the search,
// sent alone, leaves out of its whole answer.
import type { Exchange } from '../http/exchange.js';
import { loadSpec } from '../spec.js';
import { type CheckContext, contractOperation, type Problem, rule } from './harness.js';
import { contactsOf, entriesOf, entryWords, morePages, showsEntry } from './search-words.js';
import { ok, short } from './support.js';

const LIST = 'listConversations';
/** The line filter's name (the description names the filter, not its parameter: x-svc-inferred). */
const LINE = 'svc_number';
const SEARCH = 'search';

interface Narrowed {
  contact: string;
  /** The line the contact has a conversation on, and the line it has none on. */
  on: string;
  off: string;
  word: string;
  alone: Exchange;
  both: Exchange;
  /** The search with its own line's filter, and an entry of that line the search alone left out. */
  within?: { left: string; exchange: Exchange };
}

type Reach = Narrowed | { unreached: string };

const contactSet = (exchange: Exchange) => new Set(contactsOf(exchange));
const wholeList = (exchange: Exchange) => ok(exchange) && !morePages(exchange);

async function searchOnLine(t: CheckContext): Promise<Reach> {
  const lines = (await t.fixtures()).lines;
  if (lines.length < 2) return { unreached: `the team has ${lines.length} line(s) listed: two are needed` };
  const size = t.spec.pageSizeMax;
  const lists = new Map<string, Exchange>();
  for (const line of lines.slice(0, t.config.fixturesPerKind ?? 20))
    lists.set(line, await t.call({ query: { [LINE]: line, size } }, {}, LIST));
  let halfReached: Narrowed | undefined;
  for (const [on, onList] of lists)
    for (const [off, offList] of lists) {
      if (on === off || !wholeList(offList)) continue;
      const absent = contactSet(offList);
      const entry = entriesOf(onList).find((e) => !absent.has(String(e.contact_number)) && entryWords(e).length > 0);
      const word = entry ? entryWords(entry)[0]?.word : undefined;
      if (!entry || word === undefined) continue;
      const contact = String(entry.contact_number);
      const alone = await t.call({ query: { [SEARCH]: word, size } }, {}, LIST);
      if (showsEntry(alone, contact) !== 'shown') continue;
      const found = contactSet(alone);
      const left = wholeList(alone) ? contactsOf(onList).find((listed) => !found.has(listed)) : undefined;
      if (left === undefined && halfReached) continue;
      const both = await t.call({ query: { [SEARCH]: word, [LINE]: off, size } }, {}, LIST);
      const narrowed = { contact, on, off, word, alone, both };
      if (left === undefined) {
        halfReached = narrowed;
        continue;
      }
      const exchange = await t.call({ query: { [SEARCH]: word, [LINE]: on, size } }, {}, LIST);
      return { ...narrowed, within: { left, exchange } };
    }
  return (
    halfReached ?? {
      unreached:
        'no contact listed on one line and absent from another line whole list was found by a search for a word its entry shows',
    }
  );
}

function narrowedProblems(s: Reach): Problem[] {
  if ('unreached' in s) return [];
  const { contact, on, off, word, both, within } = s;
  const asked = (line: string) => `search ${short(word)} with ${LINE}=${line}`;
  if (!ok(both)) return [{ message: `${asked(off)}: expected 2xx, got ${both.status}`, exchange: both }];
  const problems: Problem[] =
    showsEntry(both, contact) === 'shown'
      ? [
          {
            message: `${asked(off)} listed ${contact}, which has no conversation on ${off}: given together, the line filter and the search both apply`,
            exchange: both,
          },
        ]
      : [];
  if (!within) return problems;
  const { left, exchange } = within;
  if (!ok(exchange)) return [...problems, { message: `${asked(on)}: expected 2xx, got ${exchange.status}`, exchange }];
  if (showsEntry(exchange, contact) === 'absent')
    problems.push({
      message: `${asked(on)} did not list ${contact}, which the search alone finds on ${on}: given together, both apply and it matches both`,
      exchange,
    });
  if (contactsOf(exchange).includes(left))
    problems.push({
      message: `${asked(on)} listed ${left}, which the search alone does not find: given together, the line filter and the search both apply`,
      exchange,
    });
  return problems;
}

rule({
  id: 'conversations.search-on-line',
  title: 'The conversation list searched and filtered by line at once lists only entries that match both',
  source: 'GET /v2/api/conversations: "optional line filter and search" (each narrows the list)',
  precondition:
    "a contact listed on one line, absent from another line's whole list, found by a search for a word its entry shows; that search sent with the other line's filter; and an entry of the contact's line that the search alone leaves out of its whole answer, that search then sent with the contact's line's filter",
  operationId: LIST,
  resource: loadSpec().resourceOf(contractOperation(LIST)),
  needs: { stateful: true },
  requests: searchOnLine,
  problems: narrowedProblems,
  notReached: (s) =>
    'unreached' in s
      ? s.unreached
      : s.within
        ? undefined
        : `no entry of ${s.on} was left out by the search ${short(s.word)} alone (or its answer was not whole)`,
  passed: (s) =>
    'unreached' in s
      ? ''
      : `${short(s.word)} finds ${s.contact} (on ${s.on}), with ${LINE}=${s.off} does not, and with ${LINE}=${s.on} leaves ${s.within?.left} out`,
});
