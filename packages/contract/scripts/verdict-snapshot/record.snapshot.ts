// Records the reports of the contract's own mutants and controls (test/support), each in a folder
// of its own under $VERDICT_SNAPSHOT_RAW, for scripts/verdict-snapshot.mjs to normalise. The servers
// are set up as the mutant and control tests set them up; nothing is asserted here.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { runContract } from '../../src/run.js';
import { CONTROLS } from '../../test/support/controls.js';
import { MUTANTS } from '../../test/support/mutants.js';
import { type Mutation, mutatingProxy, sandbox, type Target } from '../../test/support/servers.js';

const raw = process.env.VERDICT_SNAPSHOT_RAW;
if (!raw) throw new Error('VERDICT_SNAPSHOT_RAW names the folder the reports go to.');

interface Case {
  name: string;
  only: string[];
  allowWrites?: boolean;
  mutation?: Mutation | ((upstream: Target) => Mutation);
  sandbox?: Parameters<typeof sandbox>[0];
}

/** As itCatchesEachByName does: 'ignores scopes' sends every config key's request with the main key. */
function ignoreScopes(upstream: Target): Mutation {
  return {
    request: (q) => {
      const headers = new Headers(q.headers);
      const sent = headers.get('authorization');
      if (sent && upstream.config.keys.some((k) => sent.endsWith(k.key)))
        headers.set('authorization', `Api-Key ${upstream.apiKey}`);
      return { ...q, headers };
    },
  };
}

async function record(folder: string, c: Case): Promise<void> {
  const upstream = await sandbox(c.sandbox ?? {});
  const mutation =
    typeof c.mutation === 'function'
      ? c.mutation(upstream)
      : (c.mutation ?? (c.name === 'ignores scopes' ? ignoreScopes(upstream) : undefined));
  const target = mutation ? await mutatingProxy(upstream, mutation) : upstream;
  const output = join(raw as string, folder);
  mkdirSync(output, { recursive: true });
  try {
    await runContract({
      baseUrl: target.url,
      apiKey: target.apiKey,
      config: target.config,
      only: c.only,
      allowWrites: c.allowWrites === true,
      rate: 'off',
      quiet: true,
      print: false,
      reporters: ['json', 'junit', 'text', 'markdown'],
      output,
    });
  } finally {
    if (target !== upstream) await target.close();
    await upstream.close();
  }
}

const slug = (name: string) =>
  name
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();

it('records every mutant and control', async () => {
  for (const [i, mutant] of MUTANTS.entries())
    await record(`mutant-${String(i).padStart(3, '0')}-${slug(mutant.name)}`, mutant);
  for (const [i, control] of CONTROLS.entries())
    await record(`control-${String(i).padStart(3, '0')}-${slug(control.name)}`, control);
});
