// Keys never reach any output: every string the tool prints or writes passes through a redactor
// that knows every key of the run (the main key and the config's keys). Placeholders name the
// environment variable to use, so a reproduced curl still works when pasted into a shell.
//
// Only the exact key token is replaced (never part of a longer word), so a key that happens to be
// a word does not blank that word everywhere. A key shorter than SHORT characters ("any", "x")
// could be any word at all: it is replaced only where it stands as the Authorization value, after
// the scheme written in any case and any whitespace (`api-key any`, `Api-Key\tany`).

import { decodeBareEscapes, escapedForms, type Redactor, type Secret } from './redact-forms.js';

export type { Redactor, Secret };

const SHORT = 8;

/** Whether a key is redacted wherever it stands as a token (else only after the `Api-Key` scheme). */
export const redactedAnywhere = (key: string): boolean => key.length >= SHORT;
/**
 * The scheme of the Authorization value in any case, any whitespace (or a JSON-escaped one, as a
 * server echoing the header writes it), then its value up to a quote, a backslash or a space.
 * Linear: the parts cannot overlap.
 */
const AFTER_SCHEME = /(api-key)((?:\s|\\[tnr])+)([^\s"'\\]+)/gi;

const isTokenChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_-]/.test(c);

/** Replaces each occurrence of `value` that is a whole token (plain scan: no regex on data). */
function replaceToken(text: string, value: string, placeholder: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
    if (at < from) continue;
    const end = at + value.length;
    if (isTokenChar(text[at - 1]) || isTokenChar(text[end])) continue;
    out += text.slice(from, at) + placeholder;
    from = end;
  }
  return out + text.slice(from);
}

/** The value after the scheme with a short key at its start (as a whole token) replaced; unchanged when none is. */
function replaceShortKey(value: string, shortKeys: readonly Secret[]): string {
  for (const { value: key, placeholder } of shortKeys)
    if (value.startsWith(key) && !isTokenChar(value[key.length])) return placeholder + value.slice(key.length);
  return value;
}

/** A piece of text being redacted: one a redactor may still change, or a placeholder it leaves whole. */
interface Part {
  text: string;
  placeholder: boolean;
}

/**
 * The part cut at each occurrence of `value` (a whole token only where `token`), each occurrence
 * becoming `placeholder`, a part no later replacement enters. Plain scan: no regex on data.
 */
function cutAt(part: Part, value: string, placeholder: string, token: boolean): Part[] {
  if (part.placeholder) return [part];
  const { text } = part;
  const parts: Part[] = [];
  let from = 0;
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
    if (at < from) continue;
    const end = at + value.length;
    if (token && (isTokenChar(text[at - 1]) || isTokenChar(text[end]))) continue;
    parts.push({ text: text.slice(from, at), placeholder: false }, { text: placeholder, placeholder: true });
    from = end;
  }
  if (from === 0) return [part];
  parts.push({ text: text.slice(from), placeholder: false });
  return parts;
}

/**
 * The placeholders (in each form JSON text may hold them) that hold a key: a key named after a key,
 * `<redacted:sbx_demo_trial>`. Each is kept whole wherever it stands, so that a text redacted
 * twice (the recorder's pass, then the report's) never nests one in another.
 */
function placeholdersHoldingKeys(secrets: readonly Secret[]): string[] {
  const holding = secrets.filter((s) => secrets.some((key) => s.placeholder.includes(key.value)));
  const forms = holding.flatMap((s) => escapedForms({ value: s.placeholder, placeholder: s.placeholder }));
  return [...new Set(forms.map((f) => f.value))].sort((a, b) => b.length - a.length);
}

export function createRedactor(secrets: readonly Secret[]): Redactor {
  // Longest first, so a key that contains another key is replaced whole.
  const sorted = secrets.filter((s) => s.value.length > 0).sort((a, b) => b.value.length - a.value.length);
  const long = sorted
    .filter((s) => s.value.length >= SHORT)
    .flatMap(escapedForms)
    .sort((a, b) => b.value.length - a.value.length);
  const short = sorted.filter((s) => s.value.length < SHORT);
  const kept = placeholdersHoldingKeys(sorted);
  return (text) => {
    let parts: Part[] = [{ text: long.length > 0 ? decodeBareEscapes(text) : text, placeholder: false }];
    for (const placeholder of kept) parts = parts.flatMap((part) => cutAt(part, placeholder, placeholder, false));
    for (const { value, placeholder } of long) parts = parts.flatMap((part) => cutAt(part, value, placeholder, true));
    if (short.length > 0)
      for (const part of parts)
        if (!part.placeholder)
          part.text = part.text.replace(AFTER_SCHEME, (_all, scheme: string, space: string, value: string) => {
            return scheme + space + replaceShortKey(value, short);
          });
    return parts.length === 1 ? (parts[0] as Part).text : parts.map((part) => part.text).join('');
  };
}

/** Most keys a SeenKeys remembers (the most recently seen). */
export const MAX_SEEN_KEYS = 10_000;
/** Keys of at least SHORT characters, all token characters, found in one pass over the text. */
const TOKEN_RUN = /[A-Za-z0-9_-]{8,}/g;
const ONLY_TOKEN_CHARS = /^[A-Za-z0-9_-]+$/;

/**
 * A bounded set of the most recent keys, in two generations: when the young one is full it
 * becomes the old one and the old one is dropped whole, so remembering costs the same whatever
 * came before (no eviction scan), and between half and all of `max` keys are held.
 */
class RecentSet {
  private young = new Set<string>();
  private old = new Set<string>();

  constructor(private readonly max: number) {}

  add(key: string): void {
    if (this.young.has(key)) return;
    this.young.add(key);
    if (this.young.size >= this.max / 2) {
      this.old = this.young;
      this.young = new Set();
    }
  }

  has(key: string): boolean {
    return this.young.has(key) || this.old.has(key);
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  *[Symbol.iterator](): Generator<string> {
    yield* this.young;
    for (const key of this.old) if (!this.young.has(key)) yield key;
  }
}

/**
 * The keys a proxy sees in requests, with one redactor whose cost does not grow with them: every
 * value after the scheme is replaced whatever it is (any case of `Api-Key`, any whitespace, any
 * length), and a remembered key elsewhere (a server echoing it) is found by one pass over the
 * text's tokens and a set lookup. At most MAX_SEEN_KEYS are remembered, the most recent: texts
 * are redacted when their exchange is recorded, while its key is among them.
 */
export class SeenKeys {
  private readonly tokens: RecentSet;
  /** Keys with other characters than token ones, scanned one by one: few are kept. */
  private readonly others = new RecentSet(64);

  constructor(
    private readonly placeholder: string,
    max = MAX_SEEN_KEYS,
  ) {
    this.tokens = new RecentSet(max);
  }

  remember(key: string): void {
    if (key.length < SHORT) return; // redacted where it can be told from a word: after the scheme
    (ONLY_TOKEN_CHARS.test(key) ? this.tokens : this.others).add(key);
  }

  get size(): number {
    return this.tokens.size + this.others.size;
  }

  readonly redact: Redactor = (text) => {
    let out = text.replace(AFTER_SCHEME, (_all, scheme: string, space: string) => scheme + space + this.placeholder);
    if (this.tokens.size > 0) out = out.replace(TOKEN_RUN, (run) => (this.tokens.has(run) ? this.placeholder : run));
    for (const key of this.others) out = replaceToken(out, key, this.placeholder);
    return out;
  };
}

/** A key with the case of each letter swapped (undefined where it has no letters): another string, so a key no team holds. */
export function caseSwapped(key: string): string | undefined {
  const swapped = [...key].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  return swapped === key ? undefined : swapped;
}

/**
 * The placeholder of a key sent with each letter's case swapped: a shell expression that makes it
 * from the key's own placeholder, so a reproduced curl still sends it (replay/sent.ts reads it).
 */
const caseSwappedPlaceholder = (placeholder: string): string => `$(printf %s "${placeholder}" | tr a-zA-Z A-Za-z)`;

/** The secrets, each also in its case-swapped form: a run sends the run key so (auth.unknown-key). */
export function withCaseSwapped(secrets: readonly Secret[]): Secret[] {
  return secrets.flatMap((secret) => {
    const swapped = caseSwapped(secret.value);
    return swapped === undefined
      ? [secret]
      : [secret, { value: swapped, placeholder: caseSwappedPlaceholder(secret.placeholder) }];
  });
}

/** The placeholder of a key: the variable it came from, else a name. */
export function placeholderFor(name: string, env?: string): string {
  return env ? `\${${env}}` : `<redacted:${name}>`;
}
