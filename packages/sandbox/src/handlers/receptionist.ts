// The AI receptionist of a line. GET returns the seven blocks; PATCH applies the contract's merge
// rules, read from x-svc-merge-rules of UpdateReceptionistRequest (never re-typed here): single
// values are merged, collections replaced whole. Unknown and read-only fields never reach this
// module: the contract's additionalProperties: false turns them into UNKNOWN_FIELD.
//
// Line access: the description gives two answers for a line the key may not access (403
// SVC_NUMBER_FORBIDDEN in Authentication, 404 PHONE_NUMBER_NOT_FOUND on this page). The sandbox
// answers 403 SVC_NUMBER_FORBIDDEN for a line of the team that the key may not use, like every
// other line-scoped operation, and keeps 404 PHONE_NUMBER_NOT_FOUND for a number that is not a
// line of the team at all, which is what the catalogue's wording ("No phone number found for the
// account") describes.
import type { FieldError } from '@svc/spec-runtime';
import type { ApiKeyRecord, JsonValue, ReceptionistRecord, TeamRecord } from '../store/model.js';
import { keyMayUseLine } from './common.js';
import { type Failure, fail, type Handler, type HandlerContext, invalid, ok } from './types.js';

export interface MergeRules {
  merged: readonly string[];
  replaced: readonly string[];
}

function lookup(ctx: HandlerContext): ReceptionistRecord | Failure {
  const number = ctx.params.number as string;
  const receptionist = ctx.team.lines.some((l) => l.number === number)
    ? ctx.team.receptionists.find((r) => r.line === number)
    : undefined;
  if (!receptionist) {
    return fail('PHONE_NUMBER_NOT_FOUND', `No phone number ${number} found for this account.`, {
      param: 'number',
      suggestion: 'List the lines this key can use with GET /v2/api/numbers.',
    });
  }
  if (!keyMayUseLine(ctx.key, number))
    return fail('SVC_NUMBER_FORBIDDEN', `This API key has no access to the line ${number}.`, { param: 'number' });
  return receptionist;
}

function render(team: TeamRecord, key: ApiKeyRecord, r: ReceptionistRecord) {
  const calendars = r.calendar_ids
    .map((id) => team.calendars.find((c) => c.calendar_connection_id === id))
    .filter((c): c is NonNullable<typeof c> => c !== undefined)
    .map((c) => ({ ...c, owner: { ...c.owner, is_current_user: c.owner.user_id === key.owner_user_id } }));
  return {
    agent: r.agent,
    prompt: r.prompt,
    capabilities: r.capabilities,
    business_hours: r.business_hours,
    transfer_rules: r.transfer_rules,
    scheduling: { calendars },
    knowledge: r.knowledge,
  };
}

export const getReceptionist: Handler = (ctx) => {
  const found = lookup(ctx);
  if ('error' in found) return found;
  return ok({ data: render(ctx.team, ctx.key, found) });
};

function at(source: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, part) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined),
      source,
    );
}

function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  const last = parts.pop() as string;
  let node = target;
  for (const part of parts) node = node[part] as Record<string, unknown>;
  node[last] = value;
}

export function updateReceptionist(rules: MergeRules): Handler {
  return (ctx) => {
    const found = lookup(ctx);
    if ('error' in found) return found;
    const { body, team } = ctx;
    const errors: FieldError[] = [];
    const agentValues: Record<string, unknown> = {};
    const nestedValues: Array<[string, unknown]> = [];
    for (const name of rules.merged) {
      if (name.includes('.')) {
        const value = at(body, name);
        if (value !== undefined) nestedValues.push([name, value]);
        continue;
      }
      // Both readings of the body: a single value at the top level or under `agent`.
      const top = body[name];
      const nested = at(body, `agent.${name}`);
      if (top !== undefined && nested !== undefined && JSON.stringify(top) !== JSON.stringify(nested)) {
        errors.push({
          field: `agent.${name}`,
          code: 'INVALID_REQUEST',
          message: `${name} is sent both at the top level and under agent, with different values`,
        });
      }
      const value = nested ?? top;
      if (value !== undefined) agentValues[name] = value;
    }
    let calendarIds: string[] | undefined;
    const replacements: Array<[string, unknown]> = [];
    for (const path of rules.replaced) {
      const value = at(body, path);
      if (value === undefined) continue;
      if (path !== 'scheduling.calendars') {
        replacements.push([path, structuredClone(value)]);
        continue;
      }
      // Calendars are selected among those already connected to the team (the API connects none).
      calendarIds = [];
      (value as Array<{ calendar_connection_id?: string }>).forEach((entry, index) => {
        const id = entry.calendar_connection_id;
        if (id === undefined || !team.calendars.some((c) => c.calendar_connection_id === id)) {
          errors.push({
            field: `scheduling.calendars[${index}].calendar_connection_id`,
            code: 'INVALID_REQUEST',
            message: `${id === undefined ? 'calendar_connection_id is required' : `${id} is not a calendar connected to the team`}`,
          });
        } else if (!calendarIds!.includes(id)) calendarIds!.push(id);
      });
    }
    if (errors.length > 0) return invalid(errors);

    const record = found as unknown as Record<string, unknown>;
    Object.assign(found.agent, structuredClone(agentValues));
    for (const [path, value] of nestedValues) setAt(record, path, structuredClone(value) as JsonValue);
    for (const [path, value] of replacements) setAt(record, path, value);
    if (calendarIds !== undefined) found.calendar_ids = calendarIds;
    found.agent.updated_at = ctx.now();
    return ok({ data: render(team, ctx.key, found) });
  };
}
