// The Prefer header, as Prism's own server reads it (`code=404, example=THREAD_NOT_FOUND`,
// `dynamic=true`, `seed=...`), checked against what the operation documents before Prism is asked:
// an undocumented status or example name is the caller's mistake and is said so in the API's
// dialect, instead of Prism's NOT_FOUND problem+json. `example=` alone finds the response that
// holds that example, so `Prefer: example=THREAD_NOT_FOUND` is enough.
import type { IHttpOperationConfig } from '@stoplight/prism-http';
import type { Contract, Operation } from '@svc/spec-runtime';
import { previewValue } from '@svc/spec-runtime';
import { responseKeyFor } from '@svc/spec-runtime/walk';

export interface Preferences {
  code?: number;
  example?: string;
  dynamic?: boolean;
  seed?: string;
}

/** What Prism's mock config takes (the media type is fixed: the API speaks only JSON). */
export type MockChoice = Omit<IHttpOperationConfig, 'mediaTypes'>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

// A name is letters, `_` and `-`; an unquoted value has no space, tab or `"`. Each pattern is one
// character class, tried once per character: neither can backtrack.
const NAME = /^[A-Za-z_-]+$/;
const NOT_IN_VALUE = /[ \t"]/;

/** One `name[=value]` token, or null when it is malformed. */
function readToken(token: string): { name: string; value: string } | null {
  const text = token.trim();
  const equals = text.indexOf('=');
  const name = (equals === -1 ? text : text.slice(0, equals)).trimEnd();
  if (!NAME.test(name)) return null;
  if (equals === -1) return { name, value: '' };
  const raw = text.slice(equals + 1).trimStart();
  if (raw.startsWith('"')) {
    // A quoted value: everything up to the closing quote, which must end the token.
    const close = raw.indexOf('"', 1);
    return close === raw.length - 1 ? { name, value: raw.slice(1, close) } : null;
  }
  return NOT_IN_VALUE.test(raw) ? null : { name, value: raw };
}

/**
 * RFC 7240 preferences: `name=value` or `name="value"`, separated by commas (or by semicolons, which
 * Prism's parser also accepts). Unknown preferences are ignored, as the RFC asks. Messages quote
 * what was sent clipped (spec-runtime's previewValue), so a huge token is never echoed.
 */
export function parsePrefer(header: string | undefined): Parsed<Preferences> {
  const preferences: Preferences = {};
  if (header === undefined || header.trim() === '') return { ok: true, value: preferences };
  for (const token of header.split(/[,;]/)) {
    if (token.trim() === '') continue;
    const read = readToken(token);
    if (!read) {
      return {
        ok: false,
        message: `The Prefer header is malformed near ${previewValue(token.trim())}; use e.g. Prefer: code=404, example=NAME or Prefer: dynamic=true.`,
      };
    }
    const name = read.name.toLowerCase();
    const { value } = read;
    if (name === 'code') {
      if (value.length !== 3 || !/^\d{3}$/.test(value))
        return { ok: false, message: `Prefer code must be a three-digit HTTP status; got ${previewValue(value)}.` };
      preferences.code = Number(value);
    } else if (name === 'example') {
      if (value === '') return { ok: false, message: 'Prefer example needs the name of a documented example.' };
      preferences.example = value;
    } else if (name === 'dynamic') {
      if (value !== 'true' && value !== 'false')
        return { ok: false, message: `Prefer dynamic must be true or false; got ${previewValue(value)}.` };
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
      const response = contract.resolve(`${op.pointer}/responses/${key}`) as
        | { content?: Record<string, { examples?: Record<string, unknown> }> }
        | undefined;
      const media = response?.content?.['application/json'];
      byKey.set(key, Object.keys(media?.examples ?? {}));
    }
    index.set(op.operationId, byKey);
  }
  return index;
}

/** A name the caller sent, shown at most 80 characters long. */
function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}... (${text.length} characters)` : text;
}

export function resolvePreferences(
  operation: Operation,
  examples: ExampleIndex,
  preferences: Preferences,
  defaultDynamic: boolean,
): Parsed<MockChoice> {
  const byKey = examples.get(operation.operationId) ?? new Map<string, readonly string[]>();
  const choice: MockChoice = { dynamic: preferences.dynamic ?? defaultDynamic };
  if (preferences.seed !== undefined) choice.seed = preferences.seed;
  const documented = operation.statuses.join(', ');
  let key: string | undefined;
  if (preferences.code !== undefined) {
    key = responseKeyFor(operation, preferences.code);
    if (key === undefined)
      return {
        ok: false,
        message: `Prefer code=${preferences.code} is not documented for ${operation.operationId}; documented: ${documented}.`,
      };
    choice.code = preferences.code;
  }
  if (preferences.example !== undefined) {
    const name = preferences.example;
    if (key === undefined) {
      // example= alone: the first response (in document order) that holds an example of that name.
      key = operation.statuses.find((k) => byKey.get(k)?.includes(name));
      if (key === undefined) {
        const all = operation.statuses.flatMap((k) => (byKey.get(k) ?? []).map((n) => `${n} (${k})`));
        return {
          ok: false,
          message: `No response of ${operation.operationId} has an example named ${clip(name)}; documented: ${all.join(', ') || 'none'}.`,
        };
      }
      // A range or default key has no single status: Prism then picks the status itself.
      if (/^\d{3}$/.test(key)) choice.code = Number(key);
    } else if (!byKey.get(key)?.includes(name)) {
      const names = byKey.get(key) ?? [];
      return {
        ok: false,
        message: `The ${key} response of ${operation.operationId} has no example named ${clip(name)}; documented: ${names.join(', ') || 'none'}.`,
      };
    }
    choice.exampleKey = name;
  }
  return { ok: true, value: choice };
}
