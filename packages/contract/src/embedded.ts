// With no --base-url the suite checks an embedded sandbox (@svc/sandbox, the reference server):
// started on 127.0.0.1 on a free port, with its all-scopes demo key, and a config derived from
// its seed (the other demo keys and their scopes for the 403 checks; the deals, people, summary
// templates and built-in field keys no list operation exposes).
import { loadSeedFile, startSandboxServer, type RunningSandbox } from '@svc/sandbox';
import type { ContractConfig } from './model.js';

export interface EmbeddedSandbox {
  url: string;
  apiKey: string;
  config: ContractConfig;
  close(): Promise<void>;
}

type SeedFile = ReturnType<typeof loadSeedFile>;

/** The config the seed implies for its main team (keys that work on every line, on a paid plan). */
export function configFromSeed(seed: SeedFile, allScopes: readonly string[]): { apiKey: string; config: ContractConfig } {
  const usable = seed.keys.filter((k) => !k.revoked && k.plan !== 'TRIAL' && k.lines === null);
  const main = usable.find((k) => allScopes.every((s) => k.scopes.includes(s)));
  if (!main) throw new Error('The sandbox seed has no key holding every scope.');
  const team = seed.teams.find((t) => t.id === main.team_id);
  if (!team) throw new Error(`The sandbox seed has no team ${main.team_id}.`);
  return {
    apiKey: main.key,
    config: {
      keys: usable.filter((k) => k !== main && k.team_id === main.team_id).map((k) => ({ name: k.key, key: k.key, scopes: [...k.scopes] })),
      fixtures: {
        deal_ids: team.deals.map((d) => d.id),
        person_ids: team.people.map((p) => p.id),
        summary_template_ids: team.summary_templates.filter((t) => t.active).map((t) => t.id),
        built_in_field_keys: [...team.built_in_fields],
      },
    },
  };
}

export async function startEmbeddedSandbox(options: { rateLimit: boolean; allScopes: readonly string[] }): Promise<EmbeddedSandbox> {
  const seed = loadSeedFile();
  const { apiKey, config } = configFromSeed(seed, options.allScopes);
  const running: RunningSandbox = await startSandboxServer({ port: 0, host: '127.0.0.1', seed, rateLimit: options.rateLimit ? {} : false });
  return { url: running.url, apiKey, config, close: () => running.close() };
}
