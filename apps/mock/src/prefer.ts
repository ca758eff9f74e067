// The Prefer header, as Prism's own server reads it (`code=404, example=THREAD_NOT_FOUND`,
// `dynamic=true`, `seed=...`), checked against what the operation documents before Prism is asked:
// an undocumented status or example name is the caller's mistake and is said so in the API's
// dialect, instead of Prism's NOT_FOUND problem+json. `example=` alone finds the response that
// holds that example, so `Prefer: example=THREAD_NOT_FOUND` is enough.
import type { Contract, Operation } from '@svc/spec-runtime';

export interface Preferences {
  code?: number;
  example?: string;
  dynamic?: boolean;
  seed?: string;
}

/** What Prism's mock config takes (IHttpOperationConfig without mediaTypes). */
export interface MockChoice {
  code?: number;
  exampleKey?: string;
  dynamic: boolean;
  seed?: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * RFC 7240 preferences: `name=value` or `name="value"`, separated by commas (or by semicolons, which
 * Prism's parser also accepts). Unknown preferences are ignored, as the RFC asks.
 */
export function parsePrefer(header: string | undefined): Parsed<Preferences> {
  const preferences: Preferences = {};
  if (header === undefined || header.trim() === '') return { ok: true, value: preferences };
  for (const token of header.split(/[,;]/)) {
    const match = /^\s*([A-Za-z_-]+)\s*(?:=\s*(?:"([^"]*)"|([^\s"]*)))?\s*$/.exec(token);
    if (!match) {
      if (token.trim() === '') continue;
      return { ok: false, message: `The Prefer header is malformed near ${JSON.stringify(token.trim())}; use e.g. Prefer: code=404, example=NAME or Prefer: dynamic=true.` };
    }
    const name = (match[1] as string).toLowerCase();
    const value = match[2] ?? match[3] ?? '';
    if (name === 'code') {
      if (!/^\d{3}$/.test(value)) return { ok: false, message: `Prefer code must be a three-digit HTTP status; got ${JSON.stringify(value)}.` };
      preferences.code = Number(value);
    } else if (name === 'example') {
      if (value === '') return { ok: false, message: 'Prefer example needs the name of a documented example.' };
      preferences.example = value;
    } else if (name === 'dynamic') {
      if (value !== 'true' && value !== 'false') return { ok: false, message: `Prefer dynamic must be true or false; got ${JSON.stringify(value)}.` };
      preferences.dynamic = value === 'true';
    } else if (name === 'seed') {
      preferences.seed = value;
    }
  }
  return { ok: true, value: preferences };
}

/** Response key ('404', '2XX', 'default') -> its example names, per operation. */
export type ExampleIndex = ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;

export function indexExamples(contract: Contract): ExampleIndex {
  const index = new Map<string, Map<string, string[]>>();
  for (const op of contract.operations) {
    const byKey = new Map<string, string[]>();
    for (const key of op.statuses) {
      const response = contract.resolve(`${op.pointer}/responses/${key}`) as { content?: Record<string, { examples?: Record<string, unknown> }> } | undefined;
      const media = response?.content?.['application/json'];
      byKey.set(key, Object.keys(media?.examples ?? {}));
    }
    index.set(op.operationId, byKey);
  }
  return index;
}

/** The documented response key a status falls under: exact, then its range (4XX), then default. */
export function responseKeyFor(operation: Operation, status: number): string | undefined {
  if (operation.statuses.includes(String(status))) return String(status);
  const range = `${Math.floor(status / 100)}XX`;
  if (operation.statuses.includes(range)) return range;
  return operation.statuses.includes('default') ? 'default' : undefined;
}

export function resolvePreferences(operation: Operation, examples: ExampleIndex, preferences: Preferences, defaultDynamic: boolean): Parsed<MockChoice> {
  const byKey = examples.get(operation.operationId) ?? new Map<string, readonly string[]>();
  const choice: MockChoice = { dynamic: preferences.dynamic ?? defaultDynamic };
  if (preferences.seed !== undefined) choice.seed = preferences.seed;
  const documented = operation.statuses.join(', ');
  let key: string | undefined;
  if (preferences.code !== undefined) {
    key = responseKeyFor(operation, preferences.code);
    if (key === undefined) return { ok: false, message: `Prefer code=${preferences.code} is not documented for ${operation.operationId}; documented: ${documented}.` };
    choice.code = preferences.code;
  }
  if (preferences.example !== undefined) {
    const name = preferences.example;
    if (key === undefined) {
      // example= alone: the first response (in document order) that holds an example of that name.
      key = operation.statuses.find((k) => byKey.get(k)?.includes(name));
      if (key === undefined) {
        const all = operation.statuses.flatMap((k) => (byKey.get(k) ?? []).map((n) => `${n} (${k})`));
        return { ok: false, message: `No response of ${operation.operationId} has an example named ${name}; documented: ${all.join(', ') || 'none'}.` };
      }
      // A range or default key has no single status: Prism then picks the status itself.
      if (/^\d{3}$/.test(key)) choice.code = Number(key);
    } else if (!byKey.get(key)?.includes(name)) {
      const names = byKey.get(key) ?? [];
      return { ok: false, message: `The ${key} response of ${operation.operationId} has no example named ${name}; documented: ${names.join(', ') || 'none'}.` };
    }
    choice.exampleKey = name;
  }
  return { ok: true, value: choice };
}
