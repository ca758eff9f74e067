// Settings the run changes and the API can write back: a custom field's label, description and
// options, a dialer queue's settings, a line's AI receptionist. Each is read before the run's first
// write to it, and at the end read again and, where it differs, written back as found.
import { isObject } from '@svc/spec-runtime';
import type { Exchange } from '../http/exchange.js';
import type { FoundState, Undo, UndoProblem } from '../undo-ledger.js';
import {
  callOp,
  dataObject,
  type Json,
  leftChanged,
  sameJson,
  succeeded,
  type UndoContext,
  unreadable,
  writable,
} from './context.js';

/** A setting read (`state` absent when the read did not show it). */
interface Reading {
  exchange: Exchange;
  state?: Json;
}

interface Setting {
  what: string;
  read: () => Promise<Reading>;
  /** What the write can carry of a state, as compared and written back. */
  writableOf: (state: Json) => Json;
  /** Writes the found state back over the current one. */
  writeBack: (found: Json, current: Json) => Promise<Exchange>;
}

/** Read now; at the end read again and written back where it differs. */
function settingUndo(setting: Setting): () => Promise<Undo | undefined> {
  return async () => {
    const before = await setting.read();
    if (!before.state) return undefined;
    const found = setting.writableOf(before.state);
    const putBack = async (): Promise<UndoProblem[]> => {
      const now = await setting.read();
      if (!now.state) return unreadable(setting.what, now.exchange);
      const current = setting.writableOf(now.state);
      if (sameJson(found, current)) return [];
      return leftChanged(setting.what, await setting.writeBack(found, current));
    };
    return { what: setting.what, putBack };
  };
}

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && !value.trim());

/** A custom field by key, as the field list shows it; a blank description is no description. */
export function customField(cx: UndoContext, params: Record<string, string>): FoundState | undefined {
  const key = params.key;
  if (!key) return undefined;
  const read = async (): Promise<Reading> => {
    const exchange = await callOp(cx, 'listCustomFields', { query: { size: cx.spec.pageSizeMax } });
    const list = succeeded(exchange) ? (exchange.body as { data?: unknown }).data : undefined;
    const state = Array.isArray(list) ? list.find((f) => isObject(f) && f.key === key) : undefined;
    return { exchange, ...(isObject(state) ? { state } : {}) };
  };
  const writableOf = (state: Json) => {
    const { description, ...rest } = writable(cx, 'updateCustomField', state);
    return blank(description) ? rest : { ...rest, description };
  };
  // "description: a blank value clears it": a description the field did not have is cleared so.
  const writeBack = (found: Json, current: Json) =>
    callOp(cx, 'updateCustomField', {
      params: { key },
      body: {
        ...found,
        ...(found.description === undefined && current.description !== undefined ? { description: ' ' } : {}),
      },
    });
  return {
    key: `custom field ${key}`,
    read: settingUndo({
      what: `the label, description and options of custom field ${key}`,
      read,
      writableOf,
      writeBack,
    }),
  };
}

/** A dialer queue: the owner's, or a teammate's by user_id or email. An empty update reads it (it touches nothing). */
export function dialerQueue(cx: UndoContext, _params: Record<string, string>, body: unknown): FoundState {
  const target: Json = {};
  for (const name of ['user_id', 'email'])
    if (isObject(body) && typeof body[name] === 'string') target[name] = body[name];
  const read = async (): Promise<Reading> => {
    const exchange = await callOp(cx, 'upsertCurrentDialingQueue', { body: target });
    const state = dataObject(exchange);
    return { exchange, ...(state ? { state } : {}) };
  };
  const writableOf = (state: Json) => {
    const { user_id: _user, email: _email, ...settings } = writable(cx, 'upsertCurrentDialingQueue', state);
    return settings;
  };
  const whose = Object.values(target)[0] ?? 'the key owner';
  return {
    key: `dialer queue ${JSON.stringify(target)}`,
    read: settingUndo({
      what: `the dialer queue settings of ${String(whose)}`,
      read,
      writableOf,
      writeBack: (found) => callOp(cx, 'upsertCurrentDialingQueue', { body: { ...target, ...found } }),
    }),
  };
}

/**
 * A line's AI receptionist, written back whole (collections are replaced whole, single values
 * merged). The single values go in the `agent` block, or at the top level where a server takes
 * the other form of the body (x-svc-ambiguity body-form) and refuses the first.
 */
export function receptionist(cx: UndoContext, params: Record<string, string>): FoundState | undefined {
  const number = params.number;
  if (!number) return undefined;
  const read = async (): Promise<Reading> => {
    const exchange = await callOp(cx, 'getReceptionist', { params: { number } });
    const state = dataObject(exchange);
    return { exchange, ...(state ? { state } : {}) };
  };
  const inForm = (state: Json, form: 'agent' | 'top') => {
    const singles = isObject(state.agent) ? state.agent : {};
    const shaped = form === 'agent' ? { ...state, agent: singles } : { ...state, ...singles, agent: undefined };
    return writable(cx, 'updateReceptionist', shaped);
  };
  const writeBack = async (found: Json) => {
    const nested = await callOp(cx, 'updateReceptionist', { params: { number }, body: found });
    if (succeeded(nested) || nested.status !== 400) return nested;
    return callOp(cx, 'updateReceptionist', { params: { number }, body: inForm(found, 'top') });
  };
  return {
    key: `receptionist ${number}`,
    read: settingUndo({
      what: `the AI receptionist of line ${number}`,
      read,
      writableOf: (state) => inForm(state, 'agent'),
      writeBack,
    }),
  };
}
