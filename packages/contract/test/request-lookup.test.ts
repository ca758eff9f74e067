// Issue 38: every request id a contract run against a sandbox started apart prints resolves in
// that sandbox's request log, through the very command the report prints beside it. The sandbox
// is broken by its own options (a 10-byte body limit: every write with a body is refused), so the
// run fails with the sandbox's own request ids.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { lookupCommand, requestLogOf } from '../src/report/lookup.js';
import { runContract } from '../src/run.js';
import { sandbox } from './support/servers.js';

const output = mkdtempSync(join(tmpdir(), 'svc-contract-lookup-'));
afterAll(() => rmSync(output, { recursive: true, force: true }));

it('prints, beside each failure of a run against a sandbox, a lookup command that answers that request', async () => {
  const upstream = await sandbox({ maxBodyBytes: 10, serveContractConfig: true });
  try {
    let printed = '';
    const write = (text: string) => {
      printed += text;
      return true;
    };
    const stdout = { write } as unknown as NodeJS.WritableStream;
    const result = await runContract({
      baseUrl: upstream.url,
      apiKey: upstream.apiKey,
      only: ['threads'],
      allowWrites: true,
      rate: 'off',
      quiet: true,
      stdout,
      reporters: ['json', 'markdown'],
      output,
    });
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(readFileSync(join(output, 'report.json'), 'utf8')) as {
      failures: Array<{ requestId?: string }>;
    };
    const ids = [...new Set(report.failures.flatMap((f) => (f.requestId ? [f.requestId] : [])))];
    expect(ids.length).toBeGreaterThan(0);
    // The readable report: each failure's request id, then the command that looks it up.
    const lines = printed.split('\n');
    const pairs = lines.flatMap((line, i) => {
      const id = /^\s+request id: (\S+)$/.exec(line)?.[1];
      return id === undefined ? [] : [{ id, lookup: /^\s+look it up: (.+)$/.exec(lines[i + 1] ?? '')?.[1] }];
    });
    expect(pairs.length).toBeGreaterThan(0);
    for (const { id, lookup } of pairs) {
      expect(lookup, id).toBeDefined();
      expect(lookup).not.toContain(upstream.apiKey);
      // Not a blocking spawn: the sandbox that must answer curl runs in this process.
      const { stdout: answer } = await promisify(execFile)(
        'sh',
        ['-c', `${lookup} --silent --show-error --fail-with-body`],
        {
          env: { ...process.env, SVC_API_KEY: upstream.apiKey },
          encoding: 'utf8',
        },
      );
      expect(JSON.parse(answer).data.request_id, id).toBe(id);
    }
    // report.md puts the same command under each failure's curl.
    const markdown = readFileSync(join(output, 'report.md'), 'utf8');
    expect(markdown).toContain(pairs[0]!.lookup);
    // Every id of the JSON report too (more than the readable report shows).
    const log = upstream.running.sandbox.requestLog!;
    for (const id of ids) expect(log.find(id), id).toBeDefined();
  } finally {
    await upstream.close();
  }
}, 120_000);

it('names the lookup only for a sandbox started apart, and quotes any id for the shell', () => {
  expect(requestLogOf('http://127.0.0.1:4010/', false)).toBeUndefined();
  const log = requestLogOf('http://127.0.0.1:4010/', true)!;
  expect(log).toBe('http://127.0.0.1:4010/__sandbox/requests');
  expect(lookupCommand(log, "it's $(rm -rf x)")).toBe(
    `curl -H "Authorization: Api-Key \${SVC_API_KEY}" 'http://127.0.0.1:4010/__sandbox/requests/it%27s%20%24(rm%20-rf%20x)'`,
  );
});
