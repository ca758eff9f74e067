// svc-sandbox's side of "the sandbox and the contract suite fit together": the seed gains one key
// per scope and a reserve of what runs with writes use up, the config route is served, and the banner prints the contract command that uses them.
import { mainKeyOf, singleScopeKeyOf, withSingleScopeKeys } from './contract-config.js';
import { withContractReserve } from './contract-reserve.js';
import type { SeedFile } from './store/model.js';

export interface DemoContractConfig {
  seed: SeedFile;
  /** The all-scopes key the config is for; undefined when the seed has none (a custom --seed). */
  apiKey?: string;
  /** The keys that hold exactly one scope each. */
  singleScopeKeys: string[];
}

/** The seed with its single-scope keys, when it has an all-scopes key to derive a config from. */
export function withDemoContractConfig(seed: SeedFile, allScopes: readonly string[]): DemoContractConfig {
  let main: SeedFile['keys'][number];
  try {
    main = mainKeyOf(seed, allScopes);
  } catch {
    return { seed, singleScopeKeys: [] };
  }
  const apiKey = main.key;
  // The reserve lets runs with writes repeat (contract-reserve.ts).
  const extended = withContractReserve(withSingleScopeKeys(seed, allScopes), main.team_id);
  const singleScopeKeys = allScopes.map(singleScopeKeyOf).filter((key) => extended.keys.some((k) => k.key === key));
  return { seed: extended, apiKey, singleScopeKeys };
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

/** The banner's list of demo keys: the seed's, one by one, then the single-scope keys in one line. */
export function demoKeyLines(seed: SeedFile, demo: DemoContractConfig): string[] {
  const lines = seed.keys.map((k) => `  ${k.key.padEnd(30)} ${k.name}`);
  const count = demo.singleScopeKeys.length;
  if (count > 0)
    lines.push(`  ${'sbx_contract_only_<scope>'.padEnd(30)} one key per scope, holding only it (${count} keys)`);
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
