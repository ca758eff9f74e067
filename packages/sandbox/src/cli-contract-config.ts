// svc-sandbox's side of "the sandbox and the contract suite fit together": the seed gains the scope
// keys (one per scope, one per operation holding every scope but its own) and a reserve of what runs with writes use up, the config route is served, and the banner prints the contract command that uses them.
import {
  allButScopesKeyOf,
  mainKeyOf,
  operationScopeSets,
  type ScopeFacts,
  singleScopeKeyOf,
  withScopeKeys,
} from './contract-config.js';
import { withContractReserve } from './contract-reserve.js';
import type { SeedFile } from './store/model.js';

export interface DemoContractConfig {
  seed: SeedFile;
  /** The all-scopes key the config is for; undefined when the seed has none (a custom --seed). */
  apiKey?: string;
  /** The keys that hold exactly one scope each. */
  singleScopeKeys: string[];
  /** The keys that hold every scope but an operation's, one per operation scope set. */
  allButScopeKeys: string[];
}

/** The seed with its scope keys, when it has an all-scopes key to derive a config from. */
export function withDemoContractConfig(seed: SeedFile, facts: ScopeFacts): DemoContractConfig {
  const allScopes = Object.keys(facts.scopes);
  let main: SeedFile['keys'][number];
  try {
    main = mainKeyOf(seed, allScopes);
  } catch {
    return { seed, singleScopeKeys: [], allButScopeKeys: [] };
  }
  const apiKey = main.key;
  // The reserve lets runs with writes repeat (contract-reserve.ts).
  const extended = withContractReserve(withScopeKeys(seed, facts), main.team_id);
  const declared = (keys: string[]) => keys.filter((key) => extended.keys.some((k) => k.key === key));
  return {
    seed: extended,
    apiKey,
    singleScopeKeys: declared(allScopes.map(singleScopeKeyOf)),
    allButScopeKeys: declared(operationScopeSets(facts).map(allButScopesKeyOf)),
  };
}

/**
 * The contract command for a sandbox at `url`, as the README spells it: `localhost` for the
 * loopback address the sandbox binds by default, and the key in the environment (pnpm echoes a
 * command's arguments; every documented command passes keys that way).
 */
export function contractRunCommand(url: string, apiKey: string): string {
  const target = new URL(url);
  if (target.hostname === '127.0.0.1') target.hostname = 'localhost';
  return `SVC_API_KEY=${apiKey} pnpm contract --base-url ${target.origin} --allow-writes`;
}

/** The banner's list of demo keys: the seed's, one by one, then the scope keys, a line for each kind. */
export function demoKeyLines(seed: SeedFile, demo: DemoContractConfig): string[] {
  const lines = seed.keys.map((k) => `  ${k.key.padEnd(30)} ${k.name}`);
  const only = demo.singleScopeKeys.length;
  if (only > 0)
    lines.push(`  ${'sbx_contract_only_<scope>'.padEnd(30)} one key per scope, holding only it (${only} keys)`);
  const allBut = demo.allButScopeKeys.length;
  if (allBut > 0)
    lines.push(
      `  ${'sbx_contract_all_but_<scopes>'.padEnd(30)} one key per operation scope set, holding every other scope (${allBut} keys)`,
    );
  return lines;
}

/** The banner's lines that give the contract command, when the sandbox serves its config. */
export function contractCommandLines(url: string, demo: DemoContractConfig): string[] {
  if (demo.apiKey === undefined) return [];
  return [
    '',
    'Check it against the contract (svc-contract reads the demo keys and fixtures from this sandbox):',
    `  ${contractRunCommand(url, demo.apiKey)}`,
  ];
}
