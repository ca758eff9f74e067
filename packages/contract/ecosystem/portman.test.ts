// Portman's default contract tests (@apideck/portman, no configuration beyond the base URL and the
// key), generated from the bundle as shipped and run with newman against a fresh sandbox on a
// free port: every request and every assertion passes. Portman writes its working files into its
// current directory, so it runs in a temporary one, never in the repository.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { type RunningSandbox, startSandboxServer } from '@svc/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/spec.js';
import { failuresOf, newmanRun } from './support/newman.js';

const require = createRequire(import.meta.url);
const bundlePath = require.resolve('@svc/openapi/openapi.json');
const portmanBin = join(dirname(require.resolve('@apideck/portman/package.json')), 'bin', 'portman');
const DEMO_KEY = 'sbx_demo_full_access';

// The documented limits hold on the sandbox (20 reads and 5 writes per second per key), and
// Portman's collection sends its requests back to back, half of them writes: on a fast machine
// more than 5 could fall in one second. Newman's --delay-request (a run option, not Portman
// configuration) keeps every request one write's share apart, 10% under the write budget, so no
// one-second window ever sees more than 5 requests of any kind.
const { limits } = loadSpec().contract;
const delayRequest = Math.ceil((1000 / limits.writeRequestsPerSecond) * 1.1);

let sandbox: RunningSandbox;
let workDir: string;

beforeAll(async () => {
  sandbox = await startSandboxServer({ port: 0, host: '127.0.0.1' });
  workDir = mkdtempSync(join(tmpdir(), 'svc-portman-'));
});

afterAll(async () => {
  await sandbox?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

async function generateCollection(): Promise<string> {
  const output = join(workDir, 'collection.json');
  await promisify(execFile)(
    process.execPath,
    [portmanBin, '--local', bundlePath, '--baseUrl', sandbox.url, '--output', output],
    {
      cwd: workDir,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return output;
}

/** How many operations document a JSON body on their first success (Portman validates those against the schema). */
function operationsWithJsonSuccess(): number {
  const bundle = JSON.parse(readFileSync(bundlePath, 'utf8'));
  const operations = Object.values(bundle.paths).flatMap((pathItem) => Object.values(pathItem as object));
  return operations.filter((operation: { responses?: Record<string, { content?: unknown }> }) => {
    const success = Object.entries(operation.responses ?? {}).find(([status]) => /^2\d\d$/.test(status));
    return success?.[1].content !== undefined;
  }).length;
}

describe("Portman's default contract tests", () => {
  it('pass against a fresh sandbox, every request and every assertion', { timeout: 300_000 }, async () => {
    const collection = await generateCollection();
    const summary = await newmanRun({
      collection,
      envVar: [{ key: 'apiKey', value: `Api-Key ${DEMO_KEY}` }],
      delayRequest,
      reporters: [],
    });
    expect(failuresOf(summary)).toEqual([]);
    const operations = loadSpec().contract.operations.length;
    expect(summary.run.executions).toHaveLength(operations);
    // Each request asserts a 2xx status; each JSON success is validated against its schema.
    const names = summary.run.executions.flatMap((e) => (e.assertions ?? []).map((a) => a.assertion));
    expect(names.filter((name) => name.endsWith(' - Status code is 2xx'))).toHaveLength(operations);
    expect(names.filter((name) => name.endsWith(' - Schema is valid'))).toHaveLength(operationsWithJsonSuccess());
    expect(summary.run.stats.assertions).toMatchObject({ total: names.length, failed: 0 });
  });
});
