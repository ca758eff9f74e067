// With no --base-url the suite checks an embedded sandbox (@svc/sandbox, the reference server):
// started on 127.0.0.1 on a free port, with its all-scopes demo key, and a config derived from
// its seed (the other demo keys with their scopes and kinds: revoked, trial, line-limited; the
// deals, people, summary templates and built-in field keys no list operation exposes). The seed
// gains one key per scope, each holding only that scope, for the sufficient-scope checks.
import { loadSeedFile, type RunningSandbox, startSandboxServer } from '@svc/sandbox';
import type { ConfigKey, ContractConfig } from './model.js';

export interface EmbeddedSandbox {
  url: string;
  apiKey: string;
  config: ContractConfig;
  close(): Promise<void>;
}

type SeedFile = ReturnType<typeof loadSeedFile>;

const usable = (k: SeedFile['keys'][number]) => !k.revoked && k.plan !== 'TRIAL' && k.lines === null;

function mainKeyOf(seed: SeedFile, allScopes: readonly string[]) {
  const main = seed.keys.filter(usable).find((k) => allScopes.every((s) => k.scopes.includes(s)));
  if (!main) throw new Error('The sandbox seed has no key holding every scope.');
  return main;
}

/** The key of the embedded sandbox that holds exactly one scope (the sufficient-scope checks use it). */
export const scopeKeyOf = (scope: string) => `sbx_contract_only_${scope.toLowerCase()}`;

/**
 * The seed with one key per scope for the main key's team, each holding exactly that scope, so
 * that every operation's sufficient-scope check has a key with exactly its documented scope.
 */
export function withScopeKeys(seed: SeedFile, allScopes: readonly string[]): SeedFile {
  const main = mainKeyOf(seed, allScopes);
  const extra = allScopes
    .filter((scope) => !seed.keys.some((k) => k.key === scopeKeyOf(scope)))
    .map((scope) => ({ ...main, key: scopeKeyOf(scope), name: `svc-contract: ${scope} only`, scopes: [scope] }));
  return { ...seed, keys: [...seed.keys, ...extra] };
}

/** How a seed key is declared in the config: active, or the kind whose refusal it shows. */
function kindOf(k: SeedFile['keys'][number]): Pick<ConfigKey, 'kind' | 'lines'> {
  if (k.revoked) return { kind: 'revoked' };
  if (k.plan === 'TRIAL') return { kind: 'trial' };
  if (k.lines !== null) return { kind: 'line-limited', lines: [...k.lines] };
  return {};
}

/** The config the seed implies for its main team: its other keys, each declared with its kind. */
export function configFromSeed(
  seed: SeedFile,
  allScopes: readonly string[],
): { apiKey: string; config: ContractConfig } {
  const main = mainKeyOf(seed, allScopes);
  const team = seed.teams.find((t) => t.id === main.team_id);
  if (!team) throw new Error(`The sandbox seed has no team ${main.team_id}.`);
  return {
    apiKey: main.key,
    config: {
      keys: seed.keys
        .filter((k) => k !== main && k.team_id === main.team_id)
        .map((k) => ({ name: k.key, key: k.key, scopes: [...k.scopes], ...kindOf(k) })),
      fixtures: {
        deal_ids: team.deals.map((d) => d.id),
        person_ids: team.people.map((p) => p.id),
        summary_template_ids: team.summary_templates.filter((t) => t.active).map((t) => t.id),
        built_in_field_keys: [...team.built_in_fields],
      },
    },
  };
}

export async function startEmbeddedSandbox(options: {
  rateLimit: boolean;
  allScopes: readonly string[];
}): Promise<EmbeddedSandbox> {
  const seed = withScopeKeys(loadSeedFile(), options.allScopes);
  const { apiKey, config } = configFromSeed(seed, options.allScopes);
  const running: RunningSandbox = await startSandboxServer({
    port: 0,
    host: '127.0.0.1',
    seed,
    rateLimit: options.rateLimit ? {} : false,
  });
  return { url: running.url, apiKey, config, close: () => running.close() };
}
