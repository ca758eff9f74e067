// The optional --keys file: {"keys":[{"key":"...","scopes":["THREADS_READ", ...]}]}, with
// optional "revoked": true (401 API_KEY_REVOKED) and "trial": true (403 API_KEY_TRIAL_NOT_ALLOWED).
// Scopes are checked against the contract's list (x-svc-scopes) so a typo fails at start, not as
// a puzzling 403 later.
import { readFileSync } from 'node:fs';
import type { Credentials } from '@svc/server-kernel';

/** A known key: what the kernel's authentication reads. */
export type MockKey = Credentials;

export function parseKeys(raw: unknown, knownScopes: Readonly<Record<string, string>>, source = 'keys'): MockKey[] {
  const fail = (why: string): never => {
    throw new Error(`${source}: ${why}. Expected {"keys":[{"key":"...","scopes":["..."]}]}.`);
  };
  if (typeof raw !== 'object' || raw === null || !Array.isArray((raw as { keys?: unknown }).keys))
    fail('no "keys" array');
  const keys: MockKey[] = [];
  const seen = new Set<string>();
  (raw as { keys: unknown[] }).keys.forEach((entry, index) => {
    const at = `keys[${index}]`;
    if (typeof entry !== 'object' || entry === null) fail(`${at} is not an object`);
    const { key, scopes, revoked, trial } = entry as Record<string, unknown>;
    // The key travels as `Api-Key <key>`: whitespace would make it unsendable.
    if (typeof key !== 'string' || !/^\S+$/.test(key)) fail(`${at}.key must be a non-empty string without spaces`);
    if (seen.has(key as string)) fail(`${at}.key ${String(key)} appears twice`);
    seen.add(key as string);
    if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string'))
      fail(`${at}.scopes must be an array of strings`);
    const unknown = (scopes as string[]).filter((s) => !(s in knownScopes));
    if (unknown.length > 0)
      fail(`${at}.scopes has unknown scope ${unknown.join(', ')} (known: ${Object.keys(knownScopes).join(', ')})`);
    if (revoked !== undefined && typeof revoked !== 'boolean') fail(`${at}.revoked must be a boolean`);
    if (trial !== undefined && typeof trial !== 'boolean') fail(`${at}.trial must be a boolean`);
    keys.push({
      key: key as string,
      scopes: [...(scopes as string[])],
      ...(revoked ? { revoked: true } : {}),
      ...(trial ? { trial: true } : {}),
    });
  });
  return keys;
}

export function loadKeysFile(path: string, knownScopes: Readonly<Record<string, string>>): MockKey[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read keys file ${path}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`keys file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseKeys(raw, knownScopes, path);
}
