// Against a sandbox started apart (`pnpm start`, `svc-sandbox`), the suite learns the sandbox's
// other demo keys and hidden fixtures from the sandbox itself, as the embedded sandbox derives
// them: `svc-contract --base-url http://localhost:4010 --api-key sbx_demo_full_access` then needs
// no --config.
//
// So that a real server is never asked in a way that could leak or mislead:
// - it is asked only when no config was given and the run's key is a sandbox demo key (`sbx_`):
//   a run with a real key never sends this request;
// - the request carries no credential at all (the key stays where --base-url sends the API's
//   requests), follows no redirect, and is bounded in time and bytes;
// - the answer counts only when it names itself the sandbox's and was made for the run's own key,
//   and it is validated as a --config file is; anything else is set aside with a note.

import { isObject } from '@svc/spec-runtime';
import { CONTRACT_CONFIG_PATH, CONTRACT_CONFIG_SERVER } from '@svc/spec-runtime/sandbox-config';
import { ConfigError, parseConfig } from './config.js';
import { boundedFetch, TransportError } from './http/bounded-fetch.js';
import type { ContractConfig } from './types.js';

/** The prefix of every sandbox demo key; a key without it is never sent anywhere but the API. */
export const SANDBOX_KEY_PREFIX = 'sbx_';

/** A config is a few kilobytes; more is not a sandbox's answer. */
const MAX_CONFIG_BYTES = 256 * 1024;

export interface SandboxConfigResult {
  /** The config the sandbox declared, when it counts. */
  config?: ContractConfig;
  /** What happened, for the progress output (never holds a key). */
  note?: string;
}

export async function configFromSandbox(options: {
  baseUrl: string;
  apiKey: string;
  knownScopes: readonly string[];
  timeoutMs: number;
}): Promise<SandboxConfigResult> {
  if (!options.apiKey.startsWith(SANDBOX_KEY_PREFIX)) return {};
  const url = `${options.baseUrl.replace(/\/+$/, '')}${CONTRACT_CONFIG_PATH}`;
  const setAside = (why: string): SandboxConfigResult => ({
    note: `no sandbox config at ${url} (${why}); checks that need other keys or fixtures may be skipped: pass --config`,
  });
  let text: string;
  try {
    const response = await boundedFetch(
      url,
      { method: 'GET', headers: { accept: 'application/json' } },
      { timeoutMs: options.timeoutMs, maxBytes: MAX_CONFIG_BYTES },
    );
    if (response.status !== 200) return setAside(`answered ${response.status}`);
    text = response.text;
  } catch (error) {
    if (error instanceof TransportError) return setAside(error.message);
    throw error;
  }
  return acceptConfig(text, url, options.apiKey, options.knownScopes, setAside);
}

function acceptConfig(
  text: string,
  url: string,
  apiKey: string,
  knownScopes: readonly string[],
  setAside: (why: string) => SandboxConfigResult,
): SandboxConfigResult {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return setAside('the answer is not JSON');
  }
  const data = isObject(body) ? body.data : undefined;
  if (!isObject(data) || data.server !== CONTRACT_CONFIG_SERVER) return setAside('the answer is not the sandbox’s');
  if (data.api_key !== apiKey) return setAside('its config is for another of its demo keys than this run’s');
  try {
    const config = parseConfig(data.config, {}, knownScopes, url);
    return { config, note: `the sandbox's demo keys and fixtures come from ${url}` };
  } catch (error) {
    if (error instanceof ConfigError) return setAside(error.message);
    throw error;
  }
}
