// With no --base-url the suite checks an embedded sandbox (@svc/sandbox, the reference server):
// started on 127.0.0.1 on a free port, with its all-scopes demo key, and the config the sandbox
// derives from its seed (@svc/spec-runtime/sandbox-config: the other demo keys with their scopes
// and kinds, the scope keys, the ids no list operation exposes), the same
// config `svc-sandbox` serves to a run given its --base-url. The sandbox (and the server kernel
// under it) is imported only here, when it starts: a run against another server never loads it.
import {
  contractConfigOf,
  type ScopeFacts,
  type SeedLike,
  singleScopeKeyOf,
  withScopeKeys,
} from '@svc/spec-runtime/sandbox-config';
import { parseConfig } from './config.js';
import { UsageError } from './tool.js';
import type { ContractConfig } from './types.js';

export interface EmbeddedSandbox {
  url: string;
  apiKey: string;
  config: ContractConfig;
  close(): Promise<void>;
}

/** The key of the sandbox that holds exactly one scope (the sufficient-scope checks use it). */
export const scopeKeyOf = singleScopeKeyOf;

export { withScopeKeys };

/** The config the seed implies for its main team: its other keys, each declared with its kind, and the hidden ids. */
export function configFromSeed(
  seed: SeedLike,
  allScopes: readonly string[],
): { apiKey: string; config: ContractConfig } {
  const declared = contractConfigOf(seed, allScopes);
  return { apiKey: declared.api_key, config: parseConfig(declared.config, {}, allScopes, 'the sandbox seed') };
}
/** @svc/sandbox is an optional peer: a project that only checks its own server need not install it. */
async function importSandbox(): Promise<typeof import('@svc/sandbox')> {
  try {
    return await import('@svc/sandbox');
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND' || !String(error).includes('@svc/sandbox'))
      throw error;
    throw new UsageError(
      'No --base-url, and the embedded sandbox needs @svc/sandbox, which is not installed: install it beside @svc/contract, or pass --base-url.',
    );
  }
}

export async function startEmbeddedSandbox(options: {
  rateLimit: boolean;
  facts: ScopeFacts;
}): Promise<EmbeddedSandbox> {
  const { loadSeedFile, startSandboxServer } = await importSandbox();
  const seed = withScopeKeys(loadSeedFile(), options.facts);
  const { apiKey, config } = configFromSeed(seed, Object.keys(options.facts.scopes));
  const running = await startSandboxServer({
    port: 0,
    host: '127.0.0.1',
    seed,
    rateLimit: options.rateLimit ? {} : false,
  });
  return { url: running.url, apiKey, config, close: () => running.close() };
}
