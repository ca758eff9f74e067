// The config file (--config): extra keys with the scopes they hold (for the 403 checks) and the
// fixtures no list operation exposes. Keys may be given inline or, better in CI, by the name of
// an environment variable (key_env). Errors name the entry, never the key.

import { readFileSync } from 'node:fs';
import { isObject } from '@svc/spec-runtime';
import {
  type ConfigFixtures,
  type ConfigKey,
  type ContractConfig,
  FIXTURE_LISTS,
  KEY_KINDS,
  type KeyKind,
  type PersonUpdateFixture,
} from './types.js';

export class ConfigError extends Error {}

export const EMPTY_CONFIG: ContractConfig = { keys: [], fixtures: {} };

/** Validates a parsed config; `knownScopes` are the contract's scopes. */
export function parseConfig(
  raw: unknown,
  env: Record<string, string | undefined>,
  knownScopes: readonly string[],
  where = 'the config',
): ContractConfig {
  if (!isObject(raw)) throw new ConfigError(`${where} must be a JSON object with "keys" and/or "fixtures".`);
  for (const field of Object.keys(raw))
    if (!['keys', 'fixtures', '$schema', 'description'].includes(field))
      throw new ConfigError(`${where}: unknown field "${field}" (expected keys, fixtures).`);
  const keys: ConfigKey[] = [];
  const rawKeys = raw.keys ?? [];
  if (!Array.isArray(rawKeys)) throw new ConfigError(`${where}: "keys" must be an array.`);
  rawKeys.forEach((entry, index) => {
    const label = `${where}: keys[${index}]`;
    if (!isObject(entry)) throw new ConfigError(`${label} must be an object { name, key | key_env, scopes }.`);
    const name = typeof entry.name === 'string' && entry.name !== '' ? entry.name : `key-${index + 1}`;
    let key: string | undefined;
    let fromEnv: string | undefined;
    if (typeof entry.key_env === 'string') {
      fromEnv = entry.key_env;
      key = env[entry.key_env];
      if (!key) throw new ConfigError(`${label} (${name}): the environment variable ${entry.key_env} is not set.`);
    } else if (typeof entry.key === 'string' && entry.key !== '') key = entry.key;
    else throw new ConfigError(`${label} (${name}) needs "key" or "key_env".`);
    if (!Array.isArray(entry.scopes) || !entry.scopes.every((s) => typeof s === 'string'))
      throw new ConfigError(`${label} (${name}): "scopes" must list the scopes the key holds ([] for none).`);
    const unknown = (entry.scopes as string[]).filter((s) => !knownScopes.includes(s));
    if (unknown.length > 0)
      throw new ConfigError(
        `${label} (${name}): unknown scope ${unknown.join(', ')}; the contract's scopes are ${knownScopes.join(', ')}.`,
      );
    const kind = entry.kind ?? 'active';
    if (typeof kind !== 'string' || !(KEY_KINDS as readonly string[]).includes(kind))
      throw new ConfigError(`${label} (${name}): "kind" must be one of ${KEY_KINDS.join(', ')}.`);
    const lines = entry.lines;
    if (
      kind === 'line-limited' &&
      !(Array.isArray(lines) && lines.length > 0 && lines.every((l) => typeof l === 'string'))
    )
      throw new ConfigError(`${label} (${name}): a line-limited key needs "lines", the lines (E.164) it may access.`);
    if (kind !== 'line-limited' && lines !== undefined)
      throw new ConfigError(`${label} (${name}): "lines" belongs to a line-limited key (set "kind": "line-limited").`);
    keys.push({
      name,
      key,
      scopes: entry.scopes as string[],
      ...(fromEnv ? { env: fromEnv } : {}),
      ...(kind !== 'active' ? { kind: kind as KeyKind } : {}),
      ...(Array.isArray(lines) ? { lines: lines as string[] } : {}),
      ...otherTeamIdsOf(entry.ids, kind, `${label} (${name})`),
      ...userOf(entry.user_id, `${label} (${name})`),
    });
  });
  const fixtures: ConfigFixtures = {};
  const rawFixtures = raw.fixtures ?? {};
  if (!isObject(rawFixtures)) throw new ConfigError(`${where}: "fixtures" must be an object.`);
  for (const [name, value] of Object.entries(rawFixtures)) {
    if (name === 'search_query') {
      if (typeof value !== 'string') throw new ConfigError(`${where}: fixtures.search_query must be a string.`);
      fixtures.search_query = value;
    } else if (name === 'person_update') {
      fixtures.person_update = personUpdateOf(value, `${where}: fixtures.person_update`);
    } else if ((FIXTURE_LISTS as readonly string[]).includes(name)) {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
        throw new ConfigError(`${where}: fixtures.${name} must be an array of strings.`);
      fixtures[name as (typeof FIXTURE_LISTS)[number]] = value as string[];
    } else {
      throw new ConfigError(
        `${where}: unknown fixture "${name}" (known: ${[...FIXTURE_LISTS, 'search_query', 'person_update'].join(', ')}).`,
      );
    }
  }
  return { keys, fixtures };
}

export function readConfigFile(
  path: string,
  env: Record<string, string | undefined>,
  knownScopes: readonly string[],
): ContractConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read the config ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`The config ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseConfig(parsed, env, knownScopes, path);
}

/** The config file's fixtures and keys on top of another config (the embedded sandbox's). */
export function mergeConfigs(base: ContractConfig, extra: ContractConfig): ContractConfig {
  const fixtures: ConfigFixtures = { ...base.fixtures };
  for (const [name, value] of Object.entries(extra.fixtures)) {
    const current = (fixtures as Record<string, unknown>)[name];
    (fixtures as Record<string, unknown>)[name] =
      Array.isArray(value) && Array.isArray(current) ? [...new Set([...value, ...current])] : value;
  }
  return { keys: [...extra.keys, ...base.keys.filter((k) => !extra.keys.some((e) => e.key === k.key))], fixtures };
}

/** The member of the team a key belongs to, where the entry names one. */
function userOf(userId: unknown, label: string): { user_id?: string } {
  if (userId === undefined) return {};
  if (typeof userId !== 'string' || userId === '')
    throw new ConfigError(`${label}: "user_id" names the member of the team the key belongs to (a string).`);
  return { user_id: userId };
}

/** The ids of another team's resources a key of kind other-team names (those no list of its own shows). */
function otherTeamIdsOf(ids: unknown, kind: string, label: string): { ids?: string[] } {
  if (ids === undefined) return {};
  if (kind !== 'other-team')
    throw new ConfigError(`${label}: "ids" belongs to a key of another team (set "kind": "other-team").`);
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string'))
    throw new ConfigError(`${label}: "ids" must list ids of that team's resources (strings).`);
  return { ids: ids as string[] };
}

/**
 * fixtures.person_update: a person of the team, an update the server may apply to it, and the undo
 * that puts back every field the update names (the run sends the undo last, and no operation reads
 * a person by id to put it back otherwise).
 */
function personUpdateOf(value: unknown, label: string): PersonUpdateFixture {
  const shape = `${label} must be { "id": "per-…", "body": {…}, "undo": {…}, "search"?: {…} }`;
  if (!isObject(value)) throw new ConfigError(`${shape}.`);
  const { id, body, undo, search } = value;
  for (const field of Object.keys(value))
    if (!['id', 'body', 'undo', 'search'].includes(field)) throw new ConfigError(`${shape}; "${field}" is not one.`);
  if (typeof id !== 'string' || id === '') throw new ConfigError(`${shape}: "id" names the person.`);
  if (!isObject(body) || Object.keys(body).length === 0)
    throw new ConfigError(`${shape}: "body" is the update, an object of at least one field.`);
  if (!isObject(undo)) throw new ConfigError(`${shape}: "undo" is the update that puts the person back.`);
  const unrestored = Object.keys(body).filter((field) => !(field in undo));
  if (unrestored.length > 0)
    throw new ConfigError(
      `${label}: "undo" must put back every field "body" sets (missing: ${unrestored.join(', ')}).`,
    );
  if (search !== undefined && !isObject(search))
    throw new ConfigError(`${shape}: "search" is the body of a people search that shows the person.`);
  return { id, body, undo, ...(search !== undefined ? { search } : {}) };
}
