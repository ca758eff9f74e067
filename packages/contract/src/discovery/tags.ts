// The team's tag names (GET /v2/api/tags). Its entry shape is not shown: a string entry is the
// name, an object's `name` (or its first string value) is.
import { isObject } from '@svc/spec-runtime';
import type { Session } from '../session.js';
import { discoveryGet, listOf } from './get.js';
import { unique } from './match.js';

function nameOf(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (!isObject(entry)) return undefined;
  if (typeof entry.name === 'string') return entry.name;
  return Object.values(entry).find((v): v is string => typeof v === 'string');
}

export async function discoverTags(session: Session): Promise<string[]> {
  const names = listOf(await discoveryGet(session, '/v2/api/tags')).map(nameOf);
  return unique(names.filter((t): t is string => typeof t === 'string' && t.length > 0));
}
