// The team's custom fields (GET /v2/api/crm/attributes at the largest page size). The list need
// only show key, label and type ("Each list item shows key, label and type"); where an entry does
// not show its source, or is of a type with options and shows none, and writes are allowed, an
// update sending no field (all are optional, so it changes nothing) answers the whole field ("key,
// label, type, options, source"), or the 409 of a field an integration manages. Without writes the
// entry stays as listed (the checks that need more write).
import { isObject } from '@svc/spec-runtime';
import { errorCode } from '../http/exchange.js';
import type { Session } from '../session.js';
import type { CustomFieldFixture } from '../types.js';
import { discoveryGet, listOf, objectOf } from './get.js';

const UPDATE = 'updateCustomField';

/** The source a field gets where an empty update was refused as managed by an integration (its own is not shown). */
const MANAGED_ELSEWHERE = 'an integration (an empty update was refused 409)';

function fieldOf(f: Record<string, unknown>): CustomFieldFixture {
  return {
    key: String(f.key),
    label: typeof f.label === 'string' ? f.label : null,
    type: typeof f.type === 'string' ? f.type : null,
    ...(Array.isArray(f.options)
      ? { options: f.options.filter(isObject).map((o) => ({ key: String(o.key), label: String(o.label) })) }
      : {}),
    ...(typeof f.source === 'string' ? { source: f.source } : {}),
    ...(typeof f.description === 'string' ? { description: f.description } : {}),
  };
}

/** A listed field completed by the answer to an update that sends no field. */
async function completed(session: Session, listed: CustomFieldFixture): Promise<CustomFieldFixture> {
  const op = session.spec.contract.operationsById.get(UPDATE);
  if (!op) return listed;
  const path = op.path.replace('{key}', encodeURIComponent(listed.key));
  const exchange = await session.client.send({ method: op.method, path, body: {} });
  const whole = objectOf(exchange);
  if (exchange.status >= 200 && exchange.status < 300 && whole?.key === listed.key)
    return { ...listed, ...fieldOf(whole) };
  const managed = op.codesByStatus.get(409);
  if (exchange.status === 409 && managed?.has(errorCode(exchange) ?? ''))
    return { ...listed, source: MANAGED_ELSEWHERE };
  return listed;
}

export async function discoverCustomFields(session: Session): Promise<CustomFieldFixture[]> {
  const fields = listOf(await discoveryGet(session, '/v2/api/crm/attributes', { size: session.spec.pageSizeMax }))
    .filter(isObject)
    .filter((f) => typeof f.key === 'string');
  const optionTypes = session.spec.optionFieldTypes;
  const partial = (f: Record<string, unknown>) =>
    !('source' in f) || (!('options' in f) && optionTypes.includes(String(f.type)));
  const found: CustomFieldFixture[] = [];
  for (const f of fields)
    found.push(partial(f) && session.config.allowWrites ? await completed(session, fieldOf(f)) : fieldOf(f));
  return found;
}
