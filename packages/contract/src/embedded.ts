// With no --base-url the suite checks an embedded sandbox (@svc/sandbox, the reference server):
// started on 127.0.0.1 on a free port, with its all-scopes demo key, and the config the sandbox
// derives from its seed (@svc/sandbox's contract-config: the other demo keys with their scopes and
// kinds, one key per scope holding only it, the ids no list operation exposes), the same config
// `svc-sandbox` serves to a run given its --base-url.
import {
  contractConfigOf,
  loadSeedFile,
  type RunningSandbox,
  singleScopeKeyOf,
  startSandboxServer,
  withSingleScopeKeys,
} from '@svc/sandbox';
import { parseConfig } from './config.js';
import type { ContractConfig } from './model.js';

export interface EmbeddedSandbox {
  url: string;
  apiKey: string;
  config: ContractConfig;
  close(): Promise<void>;
}

type SeedFile = ReturnType<typeof loadSeedFile>;

/** The key of the sandbox that holds exactly one scope (the sufficient-scope checks use it). */
export const scopeKeyOf = singleScopeKeyOf;

/** The seed with one key per scope for the main key's team, each holding exactly that scope. */
export const withScopeKeys: (seed: SeedFile, allScopes: readonly string[]) => SeedFile = withSingleScopeKeys;

/** The config the seed implies for its main team: its other keys, each declared with its kind, and the hidden ids. */
export function configFromSeed(
  seed: SeedFile,
  allScopes: readonly string[],
): { apiKey: string; config: ContractConfig } {
  const declared = contractConfigOf(seed, allScopes);
  return { apiKey: declared.api_key, config: parseConfig(declared.config, {}, allScopes, 'the sandbox seed') };
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
