// A failure reproduced as a curl command. The exchange was recorded with every key replaced by a
// placeholder; a placeholder that names an environment variable (${SVC_API_KEY}) is left for the
// shell to expand, so the command works when pasted, and the key is never printed.
import type { ExchangeSummary } from '../types.js';

const ENV_PLACEHOLDER = /\$\{[A-Za-z_][A-Za-z0-9_]*\}/;

export function singleQuoted(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Double quotes where a ${VAR} must expand; anything else the shell could expand is escaped. */
export function quoted(value: string): string {
  if (!ENV_PLACEHOLDER.test(value)) return singleQuoted(value);
  const escaped = value.replace(/[\\"`]/g, (c) => `\\${c}`).replace(/\$(?!\{[A-Za-z_][A-Za-z0-9_]*\})/g, '\\$');
  return `"${escaped}"`;
}

export function toCurl(exchange: ExchangeSummary): string {
  const parts = ['curl -sS -i', `-X ${exchange.method}`, quoted(exchange.url)];
  for (const [name, value] of Object.entries(exchange.headers)) parts.push(`-H ${quoted(`${name}: ${value}`)}`);
  if (exchange.body !== undefined) parts.push(`--data-raw ${singleQuoted(exchange.body)}`);
  return parts.join(' ');
}
