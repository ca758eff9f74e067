// Conversation items (calls and text messages): fetch one, fetch a batch, keyword search, tags.

import type { CallRecord, TeamRecord } from '../store/model.js';
import { idPrefix } from '../support/id-prefixes.js';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, paginate } from '../support/pagination.js';
import { matchesAll, searchTerms } from '../support/text-search.js';
import {
  allItems,
  briefItem,
  findItem,
  type Item,
  itemNotFound,
  itemTexts,
  itemTime,
  timeValue,
  userRef,
} from './common.js';
import { type Failure, fail, type Handler, invalid, ok } from './types.js';

function fullItem(
  team: TeamRecord,
  item: Item,
  summary: CallRecord['summaries'][number] | undefined,
  withTranscript: boolean,
) {
  if (item.kind === 'message') {
    const m = item.record;
    return {
      ...briefItem(item),
      text: m.text,
      contact_number: m.contact_number,
      svc_number: m.svc_number,
      user: userRef(team, m.user_id),
      sent_at: m.sent_at,
      read: m.read,
      tags: m.tags,
    };
  }
  const c = item.record;
  return {
    ...briefItem(item),
    summary: summary?.content ?? '',
    summary_template_key: summary?.template_key ?? null,
    contact_number: c.contact_number,
    svc_number: c.svc_number,
    user: userRef(team, c.user_id),
    started_at: c.started_at,
    read: c.read,
    tags: c.tags,
    ...(withTranscript ? { transcript: c.transcript } : {}),
  };
}

export const getConversationItem: Handler = ({ team, params, query }) => {
  const id = params.id as string;
  const item = findItem(team, id);
  if (!item) {
    // The contract accepts the generic and the specific codes; the specific one says more.
    return id.startsWith(idPrefix('CallId'))
      ? fail('CALL_NOT_FOUND', `No call with id ${id}.`, { param: 'id' })
      : fail('TEXT_MESSAGE_NOT_FOUND', `No text message with id ${id}.`, { param: 'id' });
  }
  const withTranscript = query.get('extend') === 'transcript';
  if (item.kind === 'message') return ok({ data: fullItem(team, item, undefined, false) });
  const templateKey = query.get('template_key');
  const completed = item.record.summaries.filter((s) => s.status === 'COMPLETED');
  let summary = completed[0];
  if (templateKey !== null) {
    summary = completed.find((s) => s.template_key === templateKey);
    if (!summary)
      return fail(
        'SUMMARY_TEMPLATE_NOT_FOUND',
        `Call ${id} has no completed summary for template_key ${templateKey}.`,
        { param: 'template_key' },
      );
  } else if (completed.length > 1) {
    const keys = completed.map((s) => s.template_key).join(', ');
    return fail(
      'SUMMARY_TEMPLATE_KEY_REQUIRED',
      `Call ${id} has ${completed.length} completed summaries (${keys}); set template_key.`,
      {
        param: 'template_key',
        suggestion: `Repeat the request with template_key set to one of ${keys}.`,
      },
    );
  }
  return ok({ data: fullItem(team, item, summary, withTranscript) });
};

export const batchGetConversationItems: Handler = ({ team, body }) => {
  const ids = body.ids as string[];
  const found: unknown[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const item = findItem(team, id);
    if (item) found.push(briefItem(item));
    else missing.push(id);
  }
  // The response shape is not shown: the example's data array, plus the ids that matched nothing.
  return ok({ data: found, ...(missing.length > 0 ? { not_found: missing } : {}) });
};

/** page and size of an open request body (sandbox extension of the search bodies). */
export function bodyPaging(body: Record<string, unknown>): { page: number; size: number } | Failure {
  const errors = [];
  const page = body.page ?? DEFAULT_PAGE;
  const size = body.size ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(page) || (page as number) < 1)
    errors.push({ field: 'page', code: 'INVALID_PAGE_SIZE', message: 'page must be an integer of at least 1' });
  if (!Number.isInteger(size) || (size as number) < 1 || (size as number) > 100)
    errors.push({ field: 'size', code: 'INVALID_PAGE_SIZE', message: 'size must be an integer from 1 to 100' });
  return errors.length > 0 ? invalid(errors) : { page: page as number, size: size as number };
}

export const searchConversationItems: Handler = ({ team, body }) => {
  const query = body.query;
  const terms = typeof query === 'string' ? searchTerms(query) : null;
  if (terms === null) {
    return fail(
      'INVALID_SEARCH_QUERY',
      `The search query ${query === undefined ? 'is missing' : JSON.stringify(query)}: it needs at least one letter or digit; special characters are stripped.`,
      { param: 'query' },
    );
  }
  const paging = bodyPaging(body);
  if ('error' in paging) return paging;
  const matches = allItems(team)
    .filter((item) => matchesAll(terms, itemTexts(item)))
    .sort((a, b) => timeValue(itemTime(b)) - timeValue(itemTime(a)))
    .map(briefItem);
  return ok(paginate(matches, paging.page, paging.size));
};

export const addConversationItemTags: Handler = ({ team, params, body }) => {
  const id = params.id as string;
  const item = findItem(team, id);
  if (!item) return itemNotFound(id, 'id');
  const wanted = [...new Set(body.tags as string[])];
  const present = wanted.filter((t) => item.record.tags.includes(t));
  if (present.length > 0)
    return fail('TAG_ALREADY_EXISTS', `Tag ${present.join(', ')} is already on item ${id}.`, { param: 'tags' });
  item.record.tags.push(...wanted);
  // A tag name the team does not have yet is created (whether it should be is not shown).
  for (const name of wanted) if (!team.tags.some((t) => t.name === name)) team.tags.push({ name });
  return ok({ data: { id, tags: item.record.tags } });
};

export const removeConversationItemTag: Handler = ({ team, params }) => {
  const id = params.id as string;
  const tag = params.tag as string;
  const item = findItem(team, id);
  if (!item) return itemNotFound(id, 'id');
  const index = item.record.tags.indexOf(tag);
  if (index < 0) return fail('TAG_NOT_FOUND', `Tag ${tag} is not on item ${id}.`, { param: 'tag' });
  item.record.tags.splice(index, 1);
  return ok({ data: { id, tags: item.record.tags } });
};
