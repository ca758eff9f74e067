// A failure's request as the report keeps it, made ready to send again: every key in it is a
// placeholder (`${SVC_API_KEY}`, a config key's `${<key_env>}`, or `<redacted:name>` for a key read
// from no variable), and a placeholder is only ever filled from the environment, never from the
// file. A config key without a variable is read from SVC_KEY_<NAME> (its name in capitals, every
// other character `_`). The URL moves to another server by swapping the run's base URL.
import { caseSwapped } from '../redact.js';
import type { SentRequest } from '../report/shape.js';

const ENV_PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
// A key sent with each letter's case swapped (redact.ts caseSwappedPlaceholder), filled before the
// plain placeholders: linear, each part literal or one character class.
const CASE_SWAPPED_PLACEHOLDER = /\$\(printf %s "\$\{([A-Za-z_][A-Za-z0-9_]*)\}" \| tr a-zA-Z A-Za-z\)/g;
// A name between `<redacted:` and `>`, without `<` or `>` in it: linear, nothing to backtrack. The
// redactor never nests a placeholder now, but a report written before it did holds a key named by
// its own value (the sandbox's demo keys) as `<redacted:<redacted:name>>`: read as `name` too.
const NAMED_PLACEHOLDER = /(?:<redacted:)+([^<>]{1,200})>+/g;

/** The variable a key named `name` is read from when the config named none. */
export function keyVariableOf(name: string): string {
  return `SVC_KEY_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** The text with every `<redacted:name>` written as the `${VARIABLE}` its key is read from. */
export function withKeyVariables(text: string): string {
  return text.replace(NAMED_PLACEHOLDER, (_all, name: string) => `\${${keyVariableOf(name)}}`);
}

/** The variables a text's placeholders read, in order, each once. */
export function variablesIn(text: string): string[] {
  return [...new Set([...withKeyVariables(text).matchAll(ENV_PLACEHOLDER)].map((m) => m[1] as string))];
}

/** The request's URL relative to the run's base URL (`/v2/api/...?...`), or the whole URL when it is elsewhere. */
export function pathOf(url: string, runBaseUrl: string): string {
  const base = runBaseUrl.replace(/\/+$/, '');
  return url.startsWith(`${base}/`) ? url.slice(base.length) : url;
}

/** Every string the request sends: its URL, its headers and its body. */
export function sentTexts(request: SentRequest): string[] {
  return [
    request.url,
    ...Object.entries(request.headers).flat(),
    ...(request.body !== undefined ? [request.body] : []),
  ];
}

export interface Resolved {
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * The request with its placeholders filled from `env` and its URL on `baseUrl` (a request the run
 * sent elsewhere than `runBaseUrl` is the caller's to refuse); or the variables it needs that
 * `env` lacks (nothing is sent then).
 */
export function resolveRequest(
  request: SentRequest,
  runBaseUrl: string,
  baseUrl: string,
  env: Record<string, string | undefined>,
): Resolved | { missing: string[] } {
  const missing = [...new Set(sentTexts(request).flatMap(variablesIn))].filter((v) => !env[v]);
  if (missing.length > 0) return { missing };
  const fill = (text: string) =>
    withKeyVariables(text)
      .replace(CASE_SWAPPED_PLACEHOLDER, (_all, v: string) => caseSwapped(env[v] as string) ?? (env[v] as string))
      .replace(ENV_PLACEHOLDER, (_all, v: string) => env[v] as string);
  const path = pathOf(request.url, runBaseUrl);
  return {
    url: `${baseUrl.replace(/\/+$/, '')}${fill(path)}`,
    headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, fill(v)])),
    ...(request.body !== undefined ? { body: fill(request.body) } : {}),
  };
}
