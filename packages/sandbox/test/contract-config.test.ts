// The config svc-contract reads from a sandbox started apart: the demo keys (with one key per
// scope) and the ids no list operation exposes, served without a key, and only when asked for.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../src/app.js';
import { contractRunCommand, withDemoContractConfig } from '../src/cli-contract-config.js';
import {
  allButScopesKeyOf,
  CONTRACT_CONFIG_PATH,
  contractConfigOf,
  operationScopeSets,
  singleScopeKeyOf,
} from '../src/contract-config.js';
import { RESERVE_RUNS } from '../src/contract-reserve.js';
import { loadSeedFile } from '../src/seed-file.js';

const seed = loadSeedFile();
const contract = createSandbox().contract;
const scopes = Object.keys(contract.scopes);

describe('the contract config', () => {
  it('declares the main team’s other keys with their kinds, one key per scope and the hidden ids', () => {
    const { seed: extended, apiKey, singleScopeKeys, allButScopeKeys } = withDemoContractConfig(seed, contract);
    expect(apiKey).toBe('sbx_demo_full_access');
    expect(singleScopeKeys).toHaveLength(scopes.length);
    expect(allButScopeKeys).toHaveLength(operationScopeSets(contract).length);
    const declared = contractConfigOf(extended, scopes);
    expect(declared.api_key).toBe('sbx_demo_full_access');
    const byKey = new Map(declared.config.keys.map((k) => [k.key, k]));
    expect(byKey.has('sbx_demo_full_access')).toBe(false);
    // A workspace off the new contact model shows nothing about tenancy, but TEAM_NOT_FOUND; a second team on it shows tenancy.
    expect(byKey.get('sbx_demo_legacy_workspace')?.kind).toBe('legacy-workspace');
    expect(byKey.get('sbx_demo_other_team')).toMatchObject({ kind: 'other-team', scopes: scopes });
    expect(byKey.get('sbx_demo_revoked')?.kind).toBe('revoked');
    // Each key names its member, as is_current_user does when it reads a receptionist.
    expect(byKey.get('sbx_demo_receptionist_read')?.user_id).toBe(
      seed.keys.find((k) => k.key === 'sbx_demo_receptionist_read')?.owner_user_id,
    );
    expect(byKey.get('sbx_demo_trial')?.kind).toBe('trial');
    expect(byKey.get('sbx_demo_main_line_only')).toMatchObject({ kind: 'line-limited', lines: ['+14155550100'] });
    expect(byKey.get(singleScopeKeyOf('THREADS_WRITE'))?.scopes).toEqual(['THREADS_WRITE']);
    // The person search takes CONTACTS_READ or CRM_READ: its all-but key holds neither, and every other scope.
    const allButSearch = byKey.get(allButScopesKeyOf(['CRM_READ', 'CONTACTS_READ']))?.scopes;
    expect(allButSearch).toEqual(scopes.filter((s) => s !== 'CRM_READ' && s !== 'CONTACTS_READ'));
    expect(allButSearch).toContain('CONTACTS_READ_WRITE');
    const team = seed.teams.find((t) => t.id === 'team-harbor');
    expect(declared.config.fixtures.deal_ids).toEqual(team?.deals.map((d) => d.id));
    expect(declared.config.fixtures.built_in_field_keys).toEqual(team?.built_in_fields);
    // The person a run may rename is the one a deal links (its deal shows the names), put back as found.
    const linked = team?.deals.find((d) => d.person_id)?.person_id;
    const person = team?.people.find((p) => p.id === linked);
    expect(declared.config.fixtures.person_update).toEqual({
      id: linked,
      body: { name: `${person?.name}-svc`, last_name: `${person?.last_name}-svc` },
      undo: { name: person?.name, last_name: person?.last_name },
      search: {},
    });
  });

  it('is served at its path without a key when asked for, and is not there otherwise', async () => {
    const { seed: extended } = withDemoContractConfig(seed, contract);
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
    expect(withDemoContractConfig(partial, contract)).toEqual({
      seed: partial,
      singleScopeKeys: [],
      allButScopeKeys: [],
    });
  });

  it('prints the contract command as the README spells it', () => {
    expect(contractRunCommand('http://127.0.0.1:4010', 'sbx_demo_full_access')).toBe(
      'SVC_API_KEY=sbx_demo_full_access pnpm contract --base-url http://localhost:4010 --allow-writes',
    );
    expect(contractRunCommand('http://sandbox.internal:4010', 'k')).toBe(
      'SVC_API_KEY=k pnpm contract --base-url http://sandbox.internal:4010 --allow-writes',
    );
  });

  it('holds a reserve for runs with writes, and names only what is still free, read at each request', async () => {
    const { seed: extended } = withDemoContractConfig(seed, contract);
    const team = extended.teams.find((t) => t.id === 'team-harbor');
    const base = seed.teams.find((t) => t.id === 'team-harbor');
    expect((team?.notes.length ?? 0) - (base?.notes.length ?? 0)).toBe(RESERVE_RUNS);
    expect(team?.summary_templates.filter((t) => t.active).length).toBe(RESERVE_RUNS + 3);
    const sandbox = createSandbox({ seed: extended, serveContractConfig: true });
    const served = async () =>
      (
        (await (await sandbox.fetch(new Request(`http://sandbox${CONTRACT_CONFIG_PATH}`))).json()) as {
          data: ReturnType<typeof contractConfigOf>;
        }
      ).data.config.fixtures;
    const before = await served();
    // One of each kind, interleaved, so that a run's three threads show every entity_type.
    expect(before.threadless_item_ids.slice(0, 3).map((id) => id.slice(0, 4))).toEqual(['cll-', 'msg-', 'not-']);
    const [first] = before.threadless_item_ids;
    const created = await sandbox.fetch(
      new Request('http://sandbox/v2/api/threads', {
        method: 'POST',
        headers: { authorization: 'Api-Key sbx_demo_full_access', 'content-type': 'application/json' },
        body: JSON.stringify({ entity_type: 'CALL', entity_id: first, content: 'taken' }),
      }),
    );
    expect(created.status).toBe(201);
    const template = before.summary_template_ids[0];
    const deleted = await sandbox.fetch(
      new Request(`http://sandbox/v2/api/summary_templates/${template}`, {
        method: 'DELETE',
        headers: { authorization: 'Api-Key sbx_demo_full_access' },
      }),
    );
    expect(deleted.status).toBe(204);
    const after = await served();
    expect(after.threadless_item_ids).not.toContain(first);
    expect(after.summary_template_ids).not.toContain(template);
    expect(after.summary_template_ids).toHaveLength(3);
  });
});
