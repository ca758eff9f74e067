// The config svc-contract reads from a sandbox started apart: the demo keys (with one key per
// scope) and the ids no list operation exposes, served without a key, and only when asked for.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../src/app.js';
import { contractRunCommand, withDemoContractConfig } from '../src/cli-contract-config.js';
import { CONTRACT_CONFIG_PATH, contractConfigOf, singleScopeKeyOf } from '../src/contract-config.js';
import { loadSeedFile } from '../src/seed-file.js';

const seed = loadSeedFile();
const scopes = Object.keys(createSandbox().contract.scopes);

describe('the contract config', () => {
  it('declares the main team’s other keys with their kinds, one key per scope and the hidden ids', () => {
    const { seed: extended, apiKey, singleScopeKeys } = withDemoContractConfig(seed, scopes);
    expect(apiKey).toBe('sbx_demo_full_access');
    expect(singleScopeKeys).toHaveLength(scopes.length);
    const declared = contractConfigOf(extended, scopes);
    expect(declared.api_key).toBe('sbx_demo_full_access');
    const byKey = new Map(declared.config.keys.map((k) => [k.key, k]));
    expect(byKey.has('sbx_demo_full_access')).toBe(false);
    expect(byKey.has('sbx_demo_legacy_workspace')).toBe(false); // another team
    expect(byKey.get('sbx_demo_revoked')?.kind).toBe('revoked');
    expect(byKey.get('sbx_demo_trial')?.kind).toBe('trial');
    expect(byKey.get('sbx_demo_main_line_only')).toMatchObject({ kind: 'line-limited', lines: ['+14155550100'] });
    expect(byKey.get(singleScopeKeyOf('THREADS_WRITE'))?.scopes).toEqual(['THREADS_WRITE']);
    const team = seed.teams.find((t) => t.id === 'team-harbor');
    expect(declared.config.fixtures.deal_ids).toEqual(team?.deals.map((d) => d.id));
    expect(declared.config.fixtures.built_in_field_keys).toEqual(team?.built_in_fields);
  });

  it('is served at its path without a key when asked for, and is not there otherwise', async () => {
    const { seed: extended } = withDemoContractConfig(seed, scopes);
    const served = await createSandbox({ seed: extended, serveContractConfig: true }).fetch(
      new Request(`http://sandbox${CONTRACT_CONFIG_PATH}`),
    );
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual({ data: contractConfigOf(extended, scopes) });
    const absent = await createSandbox().fetch(new Request(`http://sandbox${CONTRACT_CONFIG_PATH}`));
    expect(absent.status).toBe(404);
  });

  it('is not offered by a seed without an all-scopes key', () => {
    const partial = { ...seed, keys: seed.keys.filter((k) => k.key === 'sbx_demo_threads_read') };
    expect(withDemoContractConfig(partial, scopes)).toEqual({ seed: partial, singleScopeKeys: [] });
  });

  it('prints the contract command as the README spells it', () => {
    expect(contractRunCommand('http://127.0.0.1:4010', 'sbx_demo_full_access')).toBe(
      'pnpm contract --base-url http://localhost:4010 --api-key sbx_demo_full_access --allow-writes',
    );
    expect(contractRunCommand('http://sandbox.internal:4010', 'k')).toBe(
      'pnpm contract --base-url http://sandbox.internal:4010 --api-key k --allow-writes',
    );
  });
});
