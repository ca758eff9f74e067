// Which completed summaries the team's calls have, as far as the API shows it: the item read with
// `template_key` answers 200 when the call has a completed summary for that key, and 404
// SUMMARY_TEMPLATE_NOT_FOUND when it has none ("On item fetch: no completed summary for the
// requested template_key"). The keys tried are the parameter's documented values (template keys
// are per team; the description names MARKDOWN_CLASSIC and MARKDOWN_SHORT_CALL); the calls, those
// the config names for their summaries, then the calls discovery found.
import { idPrefixes } from '@svc/spec-runtime';
import type { Fixtures } from '../fixtures.js';
import type { Exchange } from '../http/exchange.js';
import { documentedValues } from './explore-inputs.js';
import type { CheckContext } from './harness.js';
import { ok } from './support.js';

export const ITEM_READ = 'getConversationItem';
export const TEMPLATE_KEY = 'template_key';

/** Calls read for their summaries at most (each read once per documented template key). */
const MAX_CALLS = 4;

/** A completed summary the API showed: the call read with the key answered 2xx. */
export interface SummaryRead {
  call: string;
  key: string;
  exchange: Exchange;
}

/** The documented template keys (the template_key parameter's examples). */
export function templateKeys(t: CheckContext, f: Fixtures): string[] {
  const param = t.op(ITEM_READ).parameters.find((p) => p.name === TEMPLATE_KEY && p.in === 'query');
  return param ? documentedValues(t.spec, param, f) : [];
}

/** Calls whose summaries are worth reading: the config's summary calls first, then discovered calls. */
export function summaryCalls(t: CheckContext, f: Fixtures, configured: readonly string[]): string[] {
  const [call = 'cll-'] = idPrefixes(t.spec.schema('CallId') ?? {});
  const discovered = f.items.map((i) => i.id).filter((id) => id.startsWith(call));
  return [...new Set([...configured, ...discovered])].slice(0, MAX_CALLS);
}

/** Each call read with each documented template key: the reads that answered 2xx (a completed summary). */
export async function completedSummaries(
  t: CheckContext,
  calls: readonly string[],
  keys: readonly string[],
): Promise<SummaryRead[]> {
  const found: SummaryRead[] = [];
  for (const call of calls)
    for (const key of keys) {
      const exchange = await t.call({ params: { id: call }, query: { [TEMPLATE_KEY]: key } }, {}, ITEM_READ);
      if (ok(exchange)) found.push({ call, key, exchange });
    }
  return found;
}

/** The same reads again (after a change that must leave them as they were). */
export async function readAgain(t: CheckContext, reads: readonly SummaryRead[]): Promise<SummaryRead[]> {
  const again: SummaryRead[] = [];
  for (const { call, key } of reads)
    again.push({
      call,
      key,
      exchange: await t.call({ params: { id: call }, query: { [TEMPLATE_KEY]: key } }, {}, ITEM_READ),
    });
  return again;
}
