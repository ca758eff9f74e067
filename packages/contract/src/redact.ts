// Keys never reach any output: every string the tool prints or writes passes through a redactor
// that knows every key of the run (the main key and the config's keys). Placeholders name the
// environment variable to use, so a reproduced curl still works when pasted into a shell.
//
// Only the exact key token is replaced (never part of a longer word), so a key that happens to be
// a word does not blank that word everywhere. A key shorter than SHORT characters ("any", "x")
// could be any word at all: it is replaced only where it stands as the Authorization value.

export interface Secret {
  value: string;
  /** What replaces it, e.g. ${SVC_API_KEY}. */
  placeholder: string;
}

export type Redactor = (text: string) => string;

const SHORT = 8;
/** The scheme word of the Authorization header: a short key is redacted only right after it. */
const AUTH_PREFIX = 'Api-Key ';

const isTokenChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_-]/.test(c);

/** Replaces each occurrence of `before + value` that is a whole token (plain scan: no regex on data). */
function replaceToken(text: string, value: string, placeholder: string, before = ''): string {
  const needle = before + value;
  let out = '';
  let from = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    if (at < from) continue;
    const end = at + needle.length;
    if ((before === '' && isTokenChar(text[at - 1])) || isTokenChar(text[end])) continue;
    out += text.slice(from, at) + before + placeholder;
    from = end;
  }
  return out + text.slice(from);
}

export function createRedactor(secrets: readonly Secret[]): Redactor {
  // Longest first, so a key that contains another key is replaced whole.
  const sorted = secrets.filter((s) => s.value.length > 0).sort((a, b) => b.value.length - a.value.length);
  return (text) => {
    let out = text;
    for (const { value, placeholder } of sorted)
      out =
        value.length >= SHORT
          ? replaceToken(out, value, placeholder)
          : replaceToken(out, value, placeholder, AUTH_PREFIX);
    return out;
  };
}

/** The placeholder of a key: the variable it came from, else a name. */
export function placeholderFor(name: string, env?: string): string {
  return env ? `\${${env}}` : `<redacted:${name}>`;
}
