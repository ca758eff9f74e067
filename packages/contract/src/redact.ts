// Keys never reach any output: every string the tool prints or writes passes through a redactor
// that knows every key of the run (the main key and the config's keys). Placeholders name the
// environment variable to use, so a reproduced curl still works when pasted into a shell.

export interface Secret {
  value: string;
  /** What replaces it, e.g. ${SVC_API_KEY}. */
  placeholder: string;
}

export type Redactor = (text: string) => string;

/** Keys this short are replaced only where they stand alone, so "x" does not eat every x. */
const SHORT = 8;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function createRedactor(secrets: readonly Secret[]): Redactor {
  // Longest first, so a key that contains another key is replaced whole.
  const sorted = secrets.filter((s) => s.value.length > 0).sort((a, b) => b.value.length - a.value.length);
  const short = sorted.filter((s) => s.value.length < SHORT).map((s) => ({ ...s, re: new RegExp(`(?<![A-Za-z0-9_-])${escapeRegExp(s.value)}(?![A-Za-z0-9_-])`, 'g') }));
  return (text) => {
    let out = text;
    for (const { value, placeholder } of sorted) if (value.length >= SHORT) out = out.split(value).join(placeholder);
    for (const { re, placeholder } of short) out = out.replace(re, placeholder);
    return out;
  };
}

/** The placeholder of a key: the variable it came from, else a name. */
export function placeholderFor(name: string, env?: string): string {
  return env ? `\${${env}}` : `<redacted:${name}>`;
}
