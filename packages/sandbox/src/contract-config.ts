// What the contract suite needs to know about the sandbox that no API operation tells it: the
// other demo keys with the scopes and kinds they hold (revoked, trial, line-limited), one key per
// scope holding only that scope (for the sufficient-scope checks), and the ids no list operation
// exposes (deals, people, summary templates, built-in field keys). Written in the format of
// svc-contract's --config file, so the suite validates it as it validates a file.
//
// The embedded sandbox of @svc/contract derives its config from here; `svc-sandbox` serves it at
// CONTRACT_CONFIG_PATH (no key needed: the demo keys are public, fictional sandbox keys), so that
// `svc-contract --base-url <the sandbox> --api-key sbx_demo_full_access` needs no --config.
import { templateIdsActiveFirst, threadlessItemIds } from './contract-reserve.js';
import type { SandboxState, SeedFile } from './store/model.js';

export const CONTRACT_CONFIG_PATH = '/__sandbox/contract-config';

/** Names the answer as the sandbox's, so that a client can tell it from anything else at that path. */
export const CONTRACT_CONFIG_SERVER = 'svc-sandbox';

type SeedKey = SeedFile['keys'][number];

export interface ContractConfigKey {
  name: string;
  key: string;
  scopes: string[];
  kind?: 'revoked' | 'trial' | 'line-limited';
  lines?: string[];
}

/** The answer at CONTRACT_CONFIG_PATH: the key the config is for, and the config itself. */
export interface SandboxContractConfig {
  server: typeof CONTRACT_CONFIG_SERVER;
  /** The all-scopes demo key of the team the config describes: the key a run should use. */
  api_key: string;
  config: {
    keys: ContractConfigKey[];
    fixtures: {
      deal_ids: string[];
      person_ids: string[];
      summary_template_ids: string[];
      built_in_field_keys: string[];
      thread_ids: string[];
      threadless_item_ids: string[];
    };
  };
}

const usable = (k: SeedKey) => !k.revoked && k.plan !== 'TRIAL' && k.lines === null;

/** The seed's first usable key holding every scope: the key a contract run uses. */
export function mainKeyOf(seed: SeedFile, allScopes: readonly string[]): SeedKey {
  const main = seed.keys.filter(usable).find((k) => allScopes.every((s) => k.scopes.includes(s)));
  if (!main) throw new Error('The sandbox seed has no key holding every scope.');
  return main;
}

/** The demo key that holds exactly one scope (the sufficient-scope checks use it). */
export const singleScopeKeyOf = (scope: string) => `sbx_contract_only_${scope.toLowerCase()}`;

/**
 * The seed with one key per scope for the main key's team, each holding exactly that scope, so
 * that every operation's sufficient-scope check has a key with exactly its documented scope.
 */
export function withSingleScopeKeys(seed: SeedFile, allScopes: readonly string[]): SeedFile {
  const main = mainKeyOf(seed, allScopes);
  const extra = allScopes
    .filter((scope) => !seed.keys.some((k) => k.key === singleScopeKeyOf(scope)))
    .map((scope) => ({ ...main, key: singleScopeKeyOf(scope), name: `svc-contract: ${scope} only`, scopes: [scope] }));
  return { ...seed, keys: [...seed.keys, ...extra] };
}

/** How a seed key is declared in the config: active (no kind), or the kind whose refusal it shows. */
function kindOf(k: SeedKey): Pick<ContractConfigKey, 'kind' | 'lines'> {
  if (k.revoked) return { kind: 'revoked' };
  if (k.plan === 'TRIAL') return { kind: 'trial' };
  if (k.lines !== null) return { kind: 'line-limited', lines: [...k.lines] };
  return {};
}

/**
 * The config the seed (or the live state) implies for its main team: the team's other keys, each
 * with its kind, the hidden ids, and what a run with writes uses up that is still free.
 */
export function contractConfigOf(seed: SandboxState, allScopes: readonly string[]): SandboxContractConfig {
  const main = mainKeyOf(seed, allScopes);
  const team = seed.teams.find((t) => t.id === main.team_id);
  if (!team) throw new Error(`The sandbox seed has no team ${main.team_id}.`);
  return {
    server: CONTRACT_CONFIG_SERVER,
    api_key: main.key,
    config: {
      keys: seed.keys
        .filter((k) => k !== main && k.team_id === main.team_id)
        .map((k) => ({ name: k.key, key: k.key, scopes: [...k.scopes], ...kindOf(k) })),
      fixtures: {
        deal_ids: team.deals.map((d) => d.id),
        person_ids: team.people.map((p) => p.id),
        summary_template_ids: templateIdsActiveFirst(team),
        built_in_field_keys: [...team.built_in_fields],
        // Every thread: no list shows them all, and described.order needs one with several comments.
        thread_ids: team.threads.map((t) => t.id),
        threadless_item_ids: threadlessItemIds(team),
      },
    },
  };
}
