// The thread of each known item and note, where it has one (GET /v2/api/threads by entity), up to
// --fixtures-per-kind items; configured thread ids first.

import { lookedUpOf } from '../http/exchange.js';
import type { Session } from '../session.js';
import type { ItemFixture, ThreadFixture } from '../types.js';
import { discoveryGet, perKind } from './get.js';
import { patternOf } from './match.js';

export async function discoverThreads(session: Session, items: readonly ItemFixture[]): Promise<ThreadFixture[]> {
  const pattern = patternOf(session, 'ThreadId');
  const configured = session.config.config.fixtures.thread_ids ?? [];
  const threads: ThreadFixture[] = configured.map((id) => ({ id, entityType: '', entityId: '' }));
  for (const item of items.slice(0, perKind(session))) {
    const query = { entity_type: item.entityType, entity_id: item.id };
    // Its response shape is not shown: the thread as data, or as the first entry of a data list.
    const answer = await discoveryGet(session, '/v2/api/threads', query);
    const data = answer ? lookedUpOf(answer) : undefined;
    if (typeof data?.id !== 'string' || !pattern.test(data.id)) continue;
    const found = { id: data.id, entityType: item.entityType, entityId: item.id };
    // A configured thread found by its item: its item is now known too.
    const named = threads.findIndex((t) => t.id === found.id);
    if (named < 0) threads.push(found);
    else if (threads[named]?.entityId === '') threads[named] = found;
  }
  return threads;
}
