// The team's custom fields (GET /v2/api/crm/attributes at the largest page size).
import { isObject } from '@svc/spec-runtime';
import type { Session } from '../session.js';
import type { CustomFieldFixture } from '../types.js';
import { discoveryGet, listOf } from './get.js';

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

export async function discoverCustomFields(session: Session): Promise<CustomFieldFixture[]> {
  const fields = listOf(await discoveryGet(session, '/v2/api/crm/attributes', { size: session.spec.pageSizeMax }));
  return fields
    .filter(isObject)
    .filter((f) => typeof f.key === 'string')
    .map(fieldOf);
}
