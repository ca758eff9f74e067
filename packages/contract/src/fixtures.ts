// Fixtures: the ids the checks address. Discovered through the list operations (users, lines,
// conversations and their last items, notes, threads of those items, custom fields, tags); what no
// list operation exposes (deals, people, summary templates, built-in field keys) comes from the
// config file. Values configured there come first. Where a list's entry shape is not specified,
// values are recognised by the schema of the parameter they will be used for (a `usr-` id, an
// E.164 number), never by an invented field name. A discovery request that fails is a failed
// check (fixtures.discovery), not a reason to skip.
import { idPrefixes, isObject } from '@svc/spec-runtime';
import { API_WIDE } from './checks/catalogue.js';
import { dataOf, type Exchange } from './http/exchange.js';
import { once, type Session } from './session.js';

export class MissingFixture extends Error {}

export interface ItemFixture {
  id: string;
  /** The ThreadEntityType of the item (CALL, TEXT_MESSAGE, CONVERSATION_NOTE). */
  entityType: string;
}

export interface ThreadFixture {
  id: string;
  entityType: string;
  entityId: string;
}

export interface CustomFieldFixture {
  key: string;
  label: string | null;
  type: string | null;
  options?: Array<{ key: string; label: string }>;
  source?: string;
}

export interface Fixtures {
  users: string[];
  lines: string[];
  contacts: string[];
  /** Calls and text messages. */
  items: ItemFixture[];
  notes: ItemFixture[];
  /** Items or notes the config names as having no thread yet (thread creation from inside its limits). */
  threadless: ItemFixture[];
  threads: ThreadFixture[];
  customFields: CustomFieldFixture[];
  tags: string[];
  deals: string[];
  people: string[];
  summaryTemplates: string[];
  builtInFieldKeys: string[];
  searchQuery?: string;
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];

/** A required fixture, or a skip with the reason. */
export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined || (Array.isArray(value) && value.length === 0))
    throw new MissingFixture(`no fixture: ${what}`);
  return value;
}

function patternOf(session: Session, schemaName: string): RegExp {
  const schema = session.spec.schema(schemaName);
  if (!schema || typeof schema.pattern !== 'string')
    throw new Error(`components.schemas.${schemaName} has no pattern.`);
  return new RegExp(schema.pattern, 'u');
}

/** String values of the top level of each entry that match a pattern, preferring a field by name. */
function valuesMatching(entries: unknown[], pattern: RegExp, prefer: string): string[] {
  return entries.filter(isObject).flatMap((entry) => {
    const preferred = entry[prefer];
    const value =
      typeof preferred === 'string' && pattern.test(preferred)
        ? preferred
        : Object.values(entry).find((v): v is string => typeof v === 'string' && pattern.test(v));
    return value === undefined ? [] : [value];
  });
}

/** ThreadEntityType's values paired with ThreadEntityId's prefixes (the contract lists both in the same order). */
export function entityTypeOf(session: Session, id: string): string | undefined {
  const types = session.spec.schema('ThreadEntityType')?.enum;
  const idSchema = session.spec.schema('ThreadEntityId');
  const prefixes = idSchema ? idPrefixes(idSchema) : [];
  if (!Array.isArray(types) || types.length !== prefixes.length) return undefined;
  const index = prefixes.findIndex((p) => id.startsWith(p));
  return index >= 0 ? String(types[index]) : undefined;
}

export function fixtures(session: Session): Promise<Fixtures> {
  return once(session, 'fixtures', () => discover(session));
}

async function discover(session: Session): Promise<Fixtures> {
  const { client, config } = session;
  const configured = config.config.fixtures;
  const get = async (path: string, query?: Record<string, string>): Promise<Exchange | undefined> => {
    const exchange = await client.send({ method: 'GET', path, ...(query ? { query } : {}) });
    if (exchange.status >= 200 && exchange.status < 300) {
      session.recorder.add({
        check: 'fixtures.discovery',
        operationId: exchange.operation?.operationId ?? API_WIDE,
        status: 'passed',
      });
      return exchange;
    }
    const what = `GET ${path}${query ? `?${new URLSearchParams(query).toString()}` : ''} answered ${exchange.status || exchange.error}`;
    // A valid request the fixtures depend on failed: that is the server's failure, reported with
    // its curl, never a quiet "no fixture" that turns the checks depending on it into skips.
    session.recorder.add({
      check: 'fixtures.discovery',
      operationId: exchange.operation?.operationId ?? API_WIDE,
      status: 'failed',
      detail: `${what} (a valid discovery request)`,
      exchange: exchange.seq,
    });
    return undefined;
  };
  const userPattern = patternOf(session, 'UserId');
  const phonePattern = patternOf(session, 'PhoneNumber');
  const notePattern = patternOf(session, 'NoteId');
  const threadPattern = patternOf(session, 'ThreadId');

  const users = await get('/v2/api/users');
  const numbers = await get('/v2/api/numbers');
  const conversations = await get('/v2/api/conversations', { size: session.spec.pageSizeMax });
  const listOf = (exchange: Exchange | undefined): unknown[] => {
    const data = exchange ? dataOf(exchange) : undefined;
    return Array.isArray(data) ? data : [];
  };
  const entries = listOf(conversations);
  const contacts = unique([
    ...(configured.contact_numbers ?? []),
    ...entries
      .filter(isObject)
      .map((e) => e.contact_number)
      .filter((n): n is string => typeof n === 'string' && phonePattern.test(n)),
  ]);
  const lastItems = entries.filter(isObject).map((e) => (isObject(e.last_item) ? e.last_item.id : undefined));
  const itemIds = unique([
    ...(configured.item_ids ?? []),
    ...lastItems.filter((id): id is string => typeof id === 'string'),
  ]);

  // Notes of the first few conversations (the list of a conversation's notes is not paged).
  const noteIds: string[] = [...(configured.note_ids ?? [])];
  for (const contact of contacts.slice(0, 4)) {
    noteIds.push(
      ...valuesMatching(
        listOf(await get(`/v2/api/conversations/${encodeURIComponent(contact)}/notes`)),
        notePattern,
        'id',
      ),
    );
  }

  const itemsOf = (ids: string[]) =>
    ids
      .map((id) => ({ id, entityType: entityTypeOf(session, id) }))
      .filter((i): i is ItemFixture => i.entityType !== undefined);
  const items = itemsOf(itemIds);
  const notes = itemsOf(unique(noteIds));

  // Threads: the thread of each known item, when it has one.
  const threads: ThreadFixture[] = (configured.thread_ids ?? []).map((id) => ({ id, entityType: '', entityId: '' }));
  for (const item of [...items, ...notes].slice(0, 8)) {
    const found = await get('/v2/api/threads', { entity_type: item.entityType, entity_id: item.id });
    const data = found ? dataOf(found) : undefined;
    if (isObject(data) && typeof data.id === 'string' && threadPattern.test(data.id))
      threads.push({ id: data.id, entityType: item.entityType, entityId: item.id });
  }

  const fields = await get('/v2/api/crm/attributes', { size: session.spec.pageSizeMax });
  const customFields = listOf(fields)
    .filter(isObject)
    .filter((f) => typeof f.key === 'string')
    .map(
      (f): CustomFieldFixture => ({
        key: String(f.key),
        label: typeof f.label === 'string' ? f.label : null,
        type: typeof f.type === 'string' ? f.type : null,
        ...(Array.isArray(f.options)
          ? { options: f.options.filter(isObject).map((o) => ({ key: String(o.key), label: String(o.label) })) }
          : {}),
        ...(typeof f.source === 'string' ? { source: f.source } : {}),
      }),
    );

  const tagList = await get('/v2/api/tags');
  const tags = listOf(tagList)
    .map((t) =>
      isObject(t)
        ? typeof t.name === 'string'
          ? t.name
          : Object.values(t).find((v) => typeof v === 'string')
        : typeof t === 'string'
          ? t
          : undefined,
    )
    .filter((t): t is string => typeof t === 'string' && t.length > 0);

  // A mock answers any well-formed id with its examples: where no list exposes an id, the
  // contract's own example id is as good a fixture as any (profile mock only).
  const example = (schemaName: string): string[] => {
    if (config.profile !== 'mock') return [];
    const examples = session.spec.schema(schemaName)?.examples;
    return Array.isArray(examples) && typeof examples[0] === 'string' ? [examples[0]] : [];
  };

  return {
    users: unique([...(configured.user_ids ?? []), ...valuesMatching(listOf(users), userPattern, 'id')]),
    lines: unique([...(configured.lines ?? []), ...valuesMatching(listOf(numbers), phonePattern, 'number')]),
    contacts,
    items,
    notes,
    threadless: itemsOf(unique(configured.threadless_item_ids ?? [])),
    threads,
    customFields,
    tags: unique(tags),
    deals: configured.deal_ids ?? example('DealId'),
    people: configured.person_ids ?? example('PersonId'),
    summaryTemplates: configured.summary_template_ids ?? example('SummaryTemplateId'),
    builtInFieldKeys: configured.built_in_field_keys ?? [],
    ...(configured.search_query !== undefined ? { searchQuery: configured.search_query } : {}),
  };
}
