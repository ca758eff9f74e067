// The Postman collection as shipped (@svc/openapi), run with newman and its shipped sandbox
// environment against a sandbox over HTTP with its rate limits on: every request passes (one per
// operation, the same without a key for its 401, and the webhook delivery to a receiver of our
// own), with the tests each request carries counted, on a fresh sandbox and again after
// POST /__sandbox/reset. Only base_url and webhook_url are set here: the ports are free ones.
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_PATH, type RunningSandbox, startSandboxServer } from '../src/index.js';

interface NewmanSummary {
  run: {
    failures: { error: { message: string }; source?: { name?: string } }[];
    executions: { item: { name: string }; response?: { code: number }; assertions?: { assertion: string }[] }[];
    stats: { assertions: { total: number; failed: number } };
  };
}
type NewmanRun = (
  options: Record<string, unknown>,
  done: (error: Error | null, summary: NewmanSummary) => void,
) => void;

const require = createRequire(import.meta.url);
const newmanRun = promisify((require('newman') as { run: NewmanRun }).run);
const collection = require.resolve('@svc/openapi/openapi.postman_collection.json');
const environment = require.resolve('@svc/openapi/openapi.postman_environment.json');

let sandbox: RunningSandbox;
let receiver: Server;
const deliveries: unknown[] = [];

beforeAll(async () => {
  sandbox = await startSandboxServer({ port: 0, enableReset: true });
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      deliveries.push(JSON.parse(body));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await sandbox?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function runCollection(): Promise<NewmanSummary> {
  const { port } = receiver.address() as AddressInfo;
  return newmanRun({
    collection,
    environment,
    envVar: [
      { key: 'base_url', value: sandbox.url },
      { key: 'webhook_url', value: `http://127.0.0.1:${port}/webhooks` },
    ],
    reporters: [],
  });
}

/** How many assertions of each kind ran (the name without its parenthesised detail). */
function assertionNames(summary: NewmanSummary): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const execution of summary.run.executions)
    for (const { assertion } of execution.assertions ?? []) {
      const name = assertion.replace(/ \(.*\)$/, '');
      counts[name] = (counts[name] ?? 0) + 1;
    }
  return counts;
}

const count204 = (summary: NewmanSummary) => summary.run.executions.filter((e) => e.response?.code === 204).length;

function failuresOf(summary: NewmanSummary): string[] {
  return summary.run.failures.map((f) => `${f.source?.name ?? '?'}: ${f.error.message}`);
}

describe('the shipped Postman collection, run with newman', () => {
  it('carries real example values: no <string>-style placeholders', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(collection, 'utf8');
    expect(text.match(/<(string|integer|number|boolean|object|array)>/g) ?? []).toEqual([]);
    expect(text).toContain('Api-Key {{api_key}}');
  });

  it('passes on a fresh sandbox: every operation, its 401 without a key, and the webhook delivery', {
    timeout: 300_000,
  }, async () => {
    const summary = await runCollection();
    expect(failuresOf(summary)).toEqual([]);
    const operations = sandbox.sandbox.contract.operations.length;
    expect(summary.run.executions).toHaveLength(2 * operations + 1);
    // Each operation's example: its status, and its body against the schema (or empty, for a 204).
    // Each operation without a key: the 401, the error schema, and the error code. The webhook
    // delivery: the receiver's status only (the body of its answer is not shown).
    expect(assertionNames(summary)).toEqual({
      'the status is a documented success': operations + 1,
      'the body matches the documented schema': 2 * operations - count204(summary),
      'the body is empty, as a 204 has none': count204(summary),
      'the status is a documented error': operations,
      'the error code is a documented one': operations,
    });
    expect(summary.run.stats.assertions).toMatchObject({ total: 5 * operations + 1, failed: 0 });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ topic: 'CALL_RECEIVED' });
  });

  it('passes again after a reset of the sandbox', { timeout: 300_000 }, async () => {
    const reset = await fetch(new URL(RESET_PATH, sandbox.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Api-Key sbx_demo_full_access' },
      body: '{}',
    });
    expect(reset.status).toBe(200);
    const summary = await runCollection();
    expect(failuresOf(summary)).toEqual([]);
    expect(summary.run.executions).toHaveLength(2 * sandbox.sandbox.contract.operations.length + 1);
  });
});
