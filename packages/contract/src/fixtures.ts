// Fixtures: the ids the checks address. Discovered through the list operations (users, lines,
// conversations and their last items, notes, threads of those items, custom fields, tags: one
// discoverer per kind in discovery/, each up to --fixtures-per-kind where it reads per fixture); what no
// list operation exposes (deals, people, summary templates, built-in field keys) comes from the
// config file. Values configured there come first. Where a list's entry shape is not specified,
// values are recognised by the schema of the parameter they will be used for (a `usr-` id, an
// E.164 number), never by an invented field name. A discovery request that fails is a failed
// check (fixtures.discovery), not a reason to skip.
import { discoverConversations } from './discovery/conversations.js';
import { discoverCustomFields } from './discovery/custom-fields.js';
import { discoverLines, discoverUsers } from './discovery/directory.js';
import { unique } from './discovery/match.js';
import { discoverNotes } from './discovery/notes.js';
import { discoverTags } from './discovery/tags.js';
import { discoverThreads } from './discovery/threads.js';
import { once, type Session } from './session.js';
import { MissingFixture } from './stops.js';

export { MissingFixture } from './stops.js';

// The fixtures' shapes live in types.ts, so that the discoverers need not import this module.
import type { CustomFieldFixture, ItemFixture, ThreadFixture } from './types.js';

export type { CustomFieldFixture, ItemFixture, ThreadFixture };

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

/** A required fixture, or a skip with the reason. */
export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined || (Array.isArray(value) && value.length === 0))
    throw new MissingFixture(`no fixture: ${what}`);
  return value;
}

/** The kind (ThreadEntityType) an item id's prefix names. */
export function entityTypeOf({ spec }: Pick<Session, 'spec'>, id: string): string | undefined {
  return spec.entityKinds.find((k) => id.startsWith(k.prefix))?.type;
}

export function fixtures(session: Session): Promise<Fixtures> {
  return once(session, 'fixtures', () => discover(session));
}

/** The items among ids whose kind (ThreadEntityType) the contract knows. */
function itemsOf(session: Session, ids: string[]): ItemFixture[] {
  return ids
    .map((id) => ({ id, entityType: entityTypeOf(session, id) }))
    .filter((i): i is ItemFixture => i.entityType !== undefined);
}

/**
 * A mock answers any well-formed id with its examples: where no list exposes an id, the
 * contract's own example id is as good a fixture as any (profile mock only).
 */
function exampleId(session: Session, schemaName: string): string[] {
  if (session.config.profile !== 'mock') return [];
  const examples = session.spec.schema(schemaName)?.examples;
  return Array.isArray(examples) && typeof examples[0] === 'string' ? [examples[0]] : [];
}

/** What no list exposes: the config's ids (deals, people, summary templates, built-in field keys). */
function configuredOnly(
  session: Session,
): Pick<Fixtures, 'deals' | 'people' | 'summaryTemplates' | 'builtInFieldKeys' | 'searchQuery'> {
  const configured = session.config.config.fixtures;
  return {
    deals: configured.deal_ids ?? exampleId(session, 'DealId'),
    people: configured.person_ids ?? exampleId(session, 'PersonId'),
    summaryTemplates: configured.summary_template_ids ?? exampleId(session, 'SummaryTemplateId'),
    builtInFieldKeys: configured.built_in_field_keys ?? [],
    ...(configured.search_query !== undefined ? { searchQuery: configured.search_query } : {}),
  };
}

async function discover(session: Session): Promise<Fixtures> {
  const users = await discoverUsers(session);
  const lines = await discoverLines(session);
  const { contacts, itemIds } = await discoverConversations(session, lines);
  const items = itemsOf(session, itemIds);
  const notes = itemsOf(session, await discoverNotes(session, contacts));
  const threads = await discoverThreads(session, [...items, ...notes]);
  return {
    users,
    lines,
    contacts,
    items,
    notes,
    threadless: itemsOf(session, unique(session.config.config.fixtures.threadless_item_ids ?? [])),
    threads,
    customFields: await discoverCustomFields(session),
    tags: await discoverTags(session),
    ...configuredOnly(session),
  };
}
