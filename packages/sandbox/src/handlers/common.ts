// Lookups and renderings shared by several resources.
import type { ApiKeyRecord, CallRecord, MessageRecord, TeamRecord } from '../store/model.js';
import { type Failure, fail } from './types.js';

/** Milliseconds of a timestamp; a zone-less timestamp is read as UTC so that order never depends on the host. */
export function timeValue(timestamp: string): number {
  return Date.parse(/(Z|[+-]\d\d:\d\d)$/.test(timestamp) ? timestamp : `${timestamp}Z`);
}

export function userRef(team: TeamRecord, userId: string | null): { id: string; name: string | null } | null {
  if (userId === null) return null;
  const user = team.users.find((u) => u.id === userId);
  return { id: userId, name: user?.name ?? null };
}

export function keyMayUseLine(key: ApiKeyRecord, number: string): boolean {
  return key.lines === null || key.lines.includes(number);
}

/**
 * The lines a request covers: the one it names in svc_number (403 SVC_NUMBER_FORBIDDEN unless the
 * line belongs to the team and the key may use it), else every line of the team the key may use.
 */
export function linesInScope(team: TeamRecord, key: ApiKeyRecord, line: string | null): Set<string> | Failure {
  if (line === null) return new Set(team.lines.map((l) => l.number).filter((n) => keyMayUseLine(key, n)));
  if (team.lines.some((l) => l.number === line) && keyMayUseLine(key, line)) return new Set([line]);
  return fail('SVC_NUMBER_FORBIDDEN', `This API key has no access to the line ${line}.`, { param: 'svc_number' });
}

export type Item = { kind: 'call'; record: CallRecord } | { kind: 'message'; record: MessageRecord };

export function findItem(team: TeamRecord, id: string): Item | undefined {
  const call = team.calls.find((c) => c.id === id);
  if (call) return { kind: 'call', record: call };
  const message = team.messages.find((m) => m.id === id);
  return message ? { kind: 'message', record: message } : undefined;
}

export function itemNotFound(id: string, param: string): Failure {
  return fail('CONVERSATION_ITEM_NOT_FOUND', `No call or message with id ${id}.`, { param });
}

export function itemTime(item: Item): string {
  return item.kind === 'call' ? item.record.started_at : item.record.sent_at;
}

/** The brief form of an item used in lists (the conversation list's last_item and search results). */
export function briefItem(item: Item): {
  id: string;
  type: string;
  direction: string;
  result: string;
  summary: string;
  duration: number;
} {
  if (item.kind === 'call') {
    const call = item.record;
    const summary = call.summaries.find((s) => s.status === 'COMPLETED');
    return {
      id: call.id,
      type: 'CALL',
      direction: call.direction,
      result: call.result,
      summary: summary?.content ?? '',
      duration: call.duration,
    };
  }
  const message = item.record;
  return {
    id: message.id,
    type: 'TEXT_MESSAGE',
    direction: message.direction,
    result: message.result,
    summary: message.text,
    duration: 0,
  };
}

/** Every text of an item that a keyword search looks at. */
export function itemTexts(item: Item): string[] {
  if (item.kind === 'message') return [item.record.text, ...item.record.tags];
  const call = item.record;
  return [...call.summaries.map((s) => s.content), ...call.transcript.map((t) => t.text), ...call.tags];
}

export function allItems(team: TeamRecord): Item[] {
  return [
    ...team.calls.map((record) => ({ kind: 'call', record }) as Item),
    ...team.messages.map((record) => ({ kind: 'message', record }) as Item),
  ];
}
