// The team's users and lines (GET /v2/api/users, GET /v2/api/numbers), configured ones first.
import type { Session } from '../session.js';
import { discoveryGet, listOf } from './get.js';
import { patternOf, unique, valuesMatching } from './match.js';

export async function discoverUsers(session: Session): Promise<string[]> {
  const configured = session.config.config.fixtures.user_ids ?? [];
  const listed = listOf(await discoveryGet(session, '/v2/api/users'));
  return unique([...configured, ...valuesMatching(listed, patternOf(session, 'UserId'), 'id')]);
}

export async function discoverLines(session: Session): Promise<string[]> {
  const configured = session.config.config.fixtures.lines ?? [];
  const listed = listOf(await discoveryGet(session, '/v2/api/numbers'));
  return unique([...configured, ...valuesMatching(listed, patternOf(session, 'PhoneNumber'), 'number')]);
}
