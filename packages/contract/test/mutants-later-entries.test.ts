// Mutants of a rule on every entry of a list where the suite broke or read the first: a batch id
// checked only first, the param of a refusal naming another entry, a day's second interval, the
// second mention of a note as its conversation lists it, the second page of a search, the author of
// a thread the run started (and of a comment another key reads), a comment's second mention, a
// receptionist's second calendar, the second of two transfer rules (stored, and its phone numbers checked), the second of two tags added at once, a switch of a collection
// turned off, a day's second interval shown, a duplicate option label apart from its twin, a later new option's key, blanks
// other than spaces. Each is the sandbox broken in one way the description
// states, caught by name.
import { afterAll, describe } from 'vitest';
import {
  itCatchesEachByName,
  itPassesEachAgainstTheSandbox,
  type Mutant,
  mainKey,
  removeOutputs,
} from './support/mutants.js';
import {
  isAgent,
  isBatch,
  isNotesList,
  isTagAdd,
  isTagRemoval,
  isThreadLookup,
  isThreadRead,
} from './support/requests.js';
import {
  bodyOf,
  dataIn,
  errorIn,
  json,
  type Mutation,
  type ProxiedRequest,
  pathOf,
  type Target,
} from './support/servers.js';

afterAll(removeOutputs);

type Body = Record<string, unknown>;

/** A batch whose ids are checked for their prefix up to the first one only: the rest are looked up as they are. */
const batchFirstIdChecked: Mutation = {
  request: (q) => {
    const ids = bodyOf(q).ids;
    if (!isBatch(q) || !Array.isArray(ids) || ids.length < 2) return q;
    const good = (id: unknown) => typeof id === 'string' && /^(cll|msg)-/.test(id);
    return good(ids[0]) ? { ...q, body: JSON.stringify({ ...bodyOf(q), ids: ids.filter(good) }) } : q;
  },
};

/** A refusal whose param names the first entry of the list, whichever entry failed. */
const paramNamesFirstEntry: Mutation = {
  response: (r, q) =>
    isBatch(q) && r.status === 400
      ? json(r, (b) => {
          const error = errorIn(b);
          if (typeof error?.param === 'string') error.param = error.param.replace(/\[\d+\]/, '[0]');
        })
      : r,
};

/** An option refusal naming the option by its place counted from 1. */
const optionParamFromOne: Mutation = {
  response: (r, q) =>
    q.method === 'PATCH' && pathOf(q).startsWith('/v2/api/crm/attributes/') && r.status === 400
      ? json(r, (b) => {
          const error = errorIn(b);
          if (typeof error?.param === 'string')
            error.param = error.param.replace(/options\[(\d+)\]/, (_, n: string) => `options[${Number(n) + 1}]`);
        })
      : r,
};

/** A receptionist that stores each day of the business hours sent with its first interval only. */
const firstIntervalKept: Mutation = {
  request: (q) => {
    const body = bodyOf(q);
    const hours = body.business_hours as Body | undefined;
    if (q.method !== 'PATCH' || !isAgent(q) || !Array.isArray(hours?.schedule)) return q;
    const schedule = (hours.schedule as Body[]).map((d) =>
      Array.isArray(d.schedule) ? { ...d, schedule: d.schedule.slice(0, 1) } : d,
    );
    return { ...q, body: JSON.stringify({ ...body, business_hours: { ...hours, schedule } }) };
  },
};

/** A receptionist update whose transfer rules are stored as the first of those sent only. */
const firstTransferRuleKept: Mutation = {
  request: (q) => {
    const body = bodyOf(q);
    if (q.method !== 'PATCH' || !isAgent(q) || !Array.isArray(body.transfer_rules)) return q;
    return { ...q, body: JSON.stringify({ ...body, transfer_rules: body.transfer_rules.slice(0, 1) }) };
  },
};

/** A receptionist update that checks the phone numbers of its first transfer rule only: a later one's taken as valid. */
const laterTransferNumbersUnchecked: Mutation = {
  request: (q) => {
    const rules = bodyOf(q).transfer_rules;
    if (q.method !== 'PATCH' || !isAgent(q) || !Array.isArray(rules) || rules.length < 2) return q;
    const e164 = (n: unknown) => typeof n !== 'string' || /^\+\d+$/.test(n);
    const valid = (rule: Body) =>
      Object.fromEntries(
        Object.entries(rule).map(([k, v]) => [k, /_number$/.test(k) && !e164(v) ? '+14155550199' : v]),
      );
    const checked = [rules[0], ...(rules.slice(1) as Body[]).map(valid)];
    return { ...q, body: JSON.stringify({ ...bodyOf(q), transfer_rules: checked }) };
  },
};

/** A notes list whose later mentions of a note carry the first one's name. */
const listedMentionNamesCopied: Mutation = {
  response: (r, q) =>
    isNotesList(q)
      ? json(r, (b) => {
          const notes = Array.isArray(b.data) ? (b.data as Body[]) : [];
          for (const note of notes) {
            const mentions = Array.isArray(note.mentions) ? (note.mentions as Body[]) : [];
            for (const m of mentions.slice(1)) m.name = mentions[0]?.name;
          }
        })
      : r,
};

/** A conversation list that drops the search on pages after the first (its count still the search's). */
const searchDroppedAfterPageOne: Mutation = {
  request: (q) => {
    if (q.method !== 'GET' || pathOf(q) !== '/v2/api/conversations') return q;
    const url = new URL(q.path, 'http://x');
    if (!url.searchParams.has('search') || Number(url.searchParams.get('page') ?? '1') < 2) return q;
    url.searchParams.delete('search');
    return { ...q, path: `${url.pathname}${url.search}` };
  },
};

/** A teammate of the sandbox's run key owner (Dana Reyes): the user a faulty author lookup names. */
const LEO = { id: 'usr-7Kp2Wn5d', name: 'Leo Park' };
const DANA = { id: 'usr-4TgB81cd', name: 'Dana Reyes' };

const isThreadAnswer = (q: { method: string; path: string }) =>
  (q.method === 'POST' && pathOf(q as never) === '/v2/api/threads') ||
  isThreadRead(q as never) ||
  isThreadLookup(q as never);

/** A thread this run started names another user as its first comment's (the item's user, say). */
const startedThreadsNameAnother: Mutation = {
  response: (r, q) =>
    isThreadAnswer(q)
      ? json(r, (b) => {
          const [first] = (dataIn(b)?.comments as Body[] | undefined) ?? [];
          if (first && typeof first.content === 'string' && first.content.includes('(run ')) first.user = LEO;
        })
      : r,
};

/** Comments read by a key other than the run's name that key's owner (the author resolved from the reader). */
const authorsOfTheReader = (upstream: Target): Mutation => ({
  response: (r, q) =>
    isThreadRead(q) && !(q.headers.get('authorization') ?? '').includes(mainKey(upstream))
      ? json(r, (b) => {
          for (const c of (dataIn(b)?.comments as Body[] | undefined) ?? []) c.user = LEO;
        })
      : r,
});

/** Every comment credited to the account's owner (the run key's, Dana Reyes), whichever key wrote it: stored so, read so. */
function creditedToAccountOwner(upstream: Target): Mutation {
  const byOthers = new Set<string>();
  return {
    response: (r, q) => {
      const byOther = !(q.headers.get('authorization') ?? '').includes(mainKey(upstream));
      if (q.method === 'POST' && pathOf(q).endsWith('/comments') && r.status === 201 && byOther)
        return json(r, (b) => {
          const added = dataIn(b);
          if (typeof added?.id === 'string') byOthers.add(added.id);
          if (added) added.user = DANA;
        });
      if (!isThreadRead(q)) return r;
      return json(r, (b) => {
        for (const c of (dataIn(b)?.comments as Body[] | undefined) ?? [])
          if (byOthers.has(String(c.id))) c.user = DANA;
      });
    },
  };
}

/** A thread whose comments' later mentions carry the first mention's deleted flag (computed once per comment). */
const mentionFlagComputedOnce: Mutation = {
  response: (r, q) =>
    isThreadRead(q) || (q.method === 'POST' && pathOf(q).endsWith('/comments'))
      ? json(r, (b) => {
          const thread = dataIn(b);
          const comments = Array.isArray(thread?.comments) ? (thread.comments as Body[]) : thread ? [thread] : [];
          for (const c of comments) {
            const mentions = Array.isArray(c.mentions) ? (c.mentions as Body[]) : [];
            for (const m of mentions.slice(1)) m.deleted = mentions[0]?.deleted;
          }
        })
      : r,
};

/** A receptionist whose later calendars show the first one's owner (looked up once per configuration). */
const calendarOwnerLookedUpOnce: Mutation = {
  response: (r, q) =>
    isAgent(q)
      ? json(r, (b) => {
          const scheduling = dataIn(b)?.scheduling as Body | undefined;
          const calendars = Array.isArray(scheduling?.calendars) ? (scheduling.calendars as Body[]) : [];
          for (const c of calendars.slice(1)) c.owner = calendars[0]?.owner;
        })
      : r,
};

/** A tag add that stores the first tag named only (its loop stops after the first insert). */
const firstTagStored: Mutation = {
  request: (q) => {
    const tags = bodyOf(q).tags;
    return isTagAdd(q) && Array.isArray(tags) && tags.length > 1
      ? { ...q, body: JSON.stringify({ ...bodyOf(q), tags: tags.slice(0, 1) }) }
      : q;
  },
};

/** A tag add that checks only its first entry for a conflict: a later tag already on the item is skipped, the rest added. */
function laterDuplicateTagSkipped(): Mutation {
  const onItem = new Map<string, Set<string>>();
  const itemOf = (q: ProxiedRequest) => /^\/v2\/api\/conversations\/items\/([^/]+)\/tags/.exec(pathOf(q))?.[1];
  const heldBy = (item: string) => onItem.get(item) ?? onItem.set(item, new Set()).get(item) ?? new Set<string>();
  return {
    request: (q) => {
      const tags = bodyOf(q).tags;
      const item = itemOf(q);
      if (!isTagAdd(q) || item === undefined || !Array.isArray(tags) || tags.length < 2) return q;
      const kept = tags.filter((tag, i) => i === 0 || !heldBy(item).has(String(tag)));
      return kept.length === tags.length ? q : { ...q, body: JSON.stringify({ ...bodyOf(q), tags: kept }) };
    },
    response: (r, q) => {
      const item = itemOf(q);
      if (item === undefined || r.status >= 300) return r;
      const tags = bodyOf(q).tags;
      if (isTagAdd(q) && Array.isArray(tags)) for (const tag of tags) heldBy(item).add(String(tag));
      if (isTagRemoval(q)) heldBy(item).delete(decodeURIComponent(pathOf(q).split('/').pop() ?? ''));
      return r;
    },
  };
}

/** A receptionist that empties its calendar selection when SCHEDULING is turned off (calendars not sent). */
const schedulingOffClearsCalendars: Mutation = {
  request: (q) => {
    const body = bodyOf(q);
    const capabilities = body.capabilities as Body | undefined;
    if (q.method !== 'PATCH' || !isAgent(q) || capabilities?.SCHEDULING !== false || 'scheduling' in body) return q;
    return { ...q, body: JSON.stringify({ ...body, scheduling: { calendars: [] } }) };
  },
};

/** A receptionist that shows each day's opening intervals as one span, from the first start to the last end. */
const intervalsShownAsOneSpan: Mutation = {
  response: (r, q) =>
    isAgent(q)
      ? json(r, (b) => {
          const hours = dataIn(b)?.business_hours as Body | undefined;
          for (const day of Array.isArray(hours?.schedule) ? (hours.schedule as Body[]) : []) {
            const intervals = Array.isArray(day.schedule) ? (day.schedule as Body[]) : [];
            if (intervals.length > 1)
              day.schedule = [{ start_time: intervals[0]?.start_time, end_time: intervals.at(-1)?.end_time }];
          }
        })
      : r,
};

/** A field update that finds duplicate option labels only side by side: a later copy elsewhere is dropped, not refused. */
const optionDuplicatesApartKept: Mutation = {
  request: (q) => {
    const options = bodyOf(q).options;
    if (q.method !== 'PATCH' || !pathOf(q).startsWith('/v2/api/crm/attributes/') || !Array.isArray(options)) return q;
    const labels = options.map((o) => (o as Body).label);
    if (labels.some((label, i) => i > 0 && label === labels[i - 1])) return q;
    const kept = options.filter((_, i) => labels.indexOf(labels[i]) === i);
    return kept.length === options.length ? q : { ...q, body: JSON.stringify({ ...bodyOf(q), options: kept }) };
  },
};

/** A field update that derives the key of every new option of a request from its first new label (then _2, _3 ...). */
const newKeysFromFirstLabel: Mutation = {
  response: (r, q) => {
    const sent = bodyOf(q).options;
    if (q.method !== 'PATCH' || !pathOf(q).startsWith('/v2/api/crm/attributes/') || !Array.isArray(sent)) return r;
    const sentKeys = new Set<unknown>(sent.map((o) => (o as Body).key).filter((k) => typeof k === 'string'));
    return json(r, (b) => {
      const options = (dataIn(b)?.options ?? []) as Body[];
      const fresh = options.filter((o) => !sentKeys.has(o.key));
      for (const [i, o] of fresh.entries()) if (i > 0) o.key = `${fresh[0]?.key}_${i + 1}`;
    });
  },
};

/** Content taken as blank only when it is spaces: tabs and line breaks alone are stored as a comment. */
const onlySpacesBlank: Mutation = {
  request: (q) => {
    const content = bodyOf(q).content;
    const writesContent = q.method === 'POST' && /^\/v2\/api\/threads(\/[^/]+\/comments)?$/.test(pathOf(q));
    if (!writesContent || typeof content !== 'string' || content.trim() !== '' || /^ *$/.test(content)) return q;
    return { ...q, body: JSON.stringify({ ...bodyOf(q), content: '(tabs and line breaks)' }) };
  },
};

const LATER: Mutant[] = [
  {
    name: 'adds the other tags where a tag already on the item is not the first one named',
    caughtBy: 'tags.add-remove',
    only: ['tags.add-remove'],
    allowWrites: true,
    mutation: laterDuplicateTagSkipped,
  },
  {
    name: 'checks the prefix of the first id of a batch only',
    caughtBy: 'negative.id-prefix',
    only: ['batchGetConversationItems'],
    mutation: batchFirstIdChecked,
  },
  {
    name: 'names the first id of a batch as param, whichever failed',
    caughtBy: 'negative.id-prefix',
    only: ['batchGetConversationItems'],
    mutation: paramNamesFirstEntry,
  },
  {
    name: 'names a refused option by its place counted from 1',
    caughtBy: 'negative.too-long',
    only: ['updateCustomField'],
    allowWrites: true,
    mutation: optionParamFromOne,
  },
  {
    name: 'refuses duplicate option labels only side by side',
    caughtBy: 'custom-fields.option-invalid',
    only: ['custom-fields.option-invalid'],
    allowWrites: true,
    mutation: optionDuplicatesApartKept,
  },
  {
    name: "derives each new option's key from the request's first new label",
    caughtBy: 'custom-fields.option-rules',
    only: ['custom-fields.option-rules'],
    allowWrites: true,
    mutation: newKeysFromFirstLabel,
  },
  {
    name: 'takes only spaces as blank content, tabs and line breaks alone as a comment',
    caughtBy: 'negative.pattern',
    only: ['createThread', 'addThreadComment'],
    allowWrites: true,
    mutation: onlySpacesBlank,
  },
  {
    name: "stores a business day's first interval only",
    caughtBy: 'receptionist.collections-replaced',
    only: ['receptionist.collections-replaced'],
    allowWrites: true,
    mutation: firstIntervalKept,
    replayRestarted: "the run's own put-back was trimmed too: the line it left has no day of two intervals to send",
  },
  {
    name: 'stores the first of several transfer rules only',
    caughtBy: 'receptionist.collections-replaced',
    only: ['receptionist.collections-replaced'],
    allowWrites: true,
    mutation: firstTransferRuleKept,
  },
  {
    name: "checks the phone numbers of a receptionist's first transfer rule only",
    caughtBy: 'negative.phone-format',
    only: ['updateReceptionist'],
    allowWrites: true,
    mutation: laterTransferNumbersUnchecked,
  },
  {
    name: "lists a note's later mentions under the first one's name",
    caughtBy: 'notes.mention-deleted',
    only: ['notes.mention-deleted'],
    mutation: listedMentionNamesCopied,
  },
  {
    name: 'drops the search of the conversation list on pages after the first',
    caughtBy: 'conversations.search',
    only: ['conversations.search'],
    mutation: searchDroppedAfterPageOne,
  },
  {
    name: "names another user as the first comment's of a thread the run started",
    caughtBy: 'threads.comment-author',
    only: ['threads'],
    allowWrites: true,
    mutation: startedThreadsNameAnother,
  },
  {
    name: "names the reading key's owner as the user of each comment",
    caughtBy: 'threads.comment-author',
    only: ['threads.comment-author'],
    allowWrites: true,
    mutation: authorsOfTheReader,
  },
  {
    name: "credits every comment to the account's owner, not to the owner of the key that wrote it",
    caughtBy: 'threads.comment-author',
    only: ['threads.comment-author'],
    allowWrites: true,
    mutation: creditedToAccountOwner,
  },
  {
    name: "lists a comment's later mentions with the first one's deleted flag",
    caughtBy: 'threads.mention-removed',
    only: ['threads.mention-removed'],
    allowWrites: true,
    mutation: mentionFlagComputedOnce,
  },
  {
    name: "shows a receptionist's later calendars with the first one's owner",
    caughtBy: 'receptionist.calendars-selected',
    only: ['receptionist.calendars-selected'],
    allowWrites: true,
    mutation: calendarOwnerLookedUpOnce,
  },
  {
    name: 'stores the first of several tags added at once only',
    caughtBy: 'tags.add-remove',
    only: ['tags.add-remove'],
    allowWrites: true,
    mutation: firstTagStored,
  },
  {
    name: 'empties the calendar selection when SCHEDULING is turned off',
    caughtBy: 'receptionist.collections-replaced',
    only: ['receptionist.collections-replaced'],
    allowWrites: true,
    mutation: schedulingOffClearsCalendars,
    replayRestarted:
      "the run's own put-back of the capabilities turned SCHEDULING on again, but left the calendars it emptied",
  },
  {
    name: "shows a day's opening intervals as one span",
    caughtBy: 'receptionist.collections-replaced',
    only: ['receptionist.collections-replaced'],
    allowWrites: true,
    mutation: intervalsShownAsOneSpan,
  },
];

describe('mutants of a rule on every entry of a list', () => {
  itCatchesEachByName(LATER);
  itPassesEachAgainstTheSandbox(LATER, { allowWrites: true });
});
