// The suite must find real deviations. Each mutant is the sandbox with one rule broken (by a
// proxy in front of it, or by a hook into the sandbox's contract), and each must be caught by
// name: the failing check's id appears in the JSON report. Only the relevant subset runs (--only).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContract } from '@svc/spec-runtime';
import { runContract } from '../src/run.js';
import type { ContractOptions } from '../src/options.js';
import { json, mutatingProxy, sandbox, type Mutation, type Target } from './support/servers.js';

const outputs: string[] = [];
afterAll(() => {
  for (const dir of outputs) rmSync(dir, { recursive: true, force: true });
});

interface Mutant {
  name: string;
  /** The check that must fail. */
  caughtBy: string;
  only: string[];
  allowWrites?: boolean;
  mutation?: Mutation;
  /** A hook instead of a proxy: a sandbox started with these options. */
  sandbox?: Parameters<typeof sandbox>[0];
}

const isPath = (path: string, prefix: string) => path.split('?')[0]?.startsWith(prefix) ?? false;

/** The bundle with the PhoneNumber pattern (and its error code) gone: a server that accepts any number. */
function contractWithoutPhoneRule() {
  const bundle = structuredClone(createRequire(import.meta.url)('@svc/openapi/openapi.json')) as { components: { schemas: Record<string, Record<string, unknown>> } };
  delete bundle.components.schemas.PhoneNumber?.pattern;
  delete bundle.components.schemas.PhoneNumber?.['x-svc-error-code'];
  return loadContract(bundle);
}

const MUTANTS: Mutant[] = [
  {
    name: 'drops a required field',
    caughtBy: 'response.schema',
    only: ['getThread'],
    mutation: { response: (r, q) => (q.method === 'GET' && r.status === 200 && isPath(q.path, '/v2/api/threads/') ? json(r, (b) => delete (b.data as Record<string, unknown>).comment_count) : r) },
  },
  {
    name: 'returns an undocumented error code',
    caughtBy: 'response.error-code',
    only: ['getThread'],
    mutation: { response: (r, q) => (r.status === 404 && isPath(q.path, '/v2/api/threads/') ? json(r, (b) => ((b.error as Record<string, unknown>).code = 'NOTE_NOT_FOUND')) : r) },
  },
  {
    name: 'answers with the wrong status',
    caughtBy: 'response.status-documented',
    only: ['listUsers'],
    mutation: { response: (r, q) => (r.status === 200 && isPath(q.path, '/v2/api/users') ? { ...r, status: 201 } : r) },
  },
  {
    name: 'gives the wrong error type',
    caughtBy: 'response.error-type',
    only: ['listTags'],
    mutation: { response: (r) => (r.status === 401 ? json(r, (b) => ((b.error as Record<string, unknown>).type = 'permission_error')) : r) },
  },
  {
    name: 'generates malformed request ids',
    caughtBy: 'response.request-id',
    only: ['listTags'],
    mutation: {
      response: (r, q) => {
        if (q.headers.has('x-request-id')) return r;
        const headers = new Headers(r.headers);
        headers.set('x-request-id', 'request-42');
        return json({ ...r, headers }, (b) => {
          if (b.error) (b.error as Record<string, unknown>).request_id = 'request-42';
        });
      },
    },
  },
  {
    name: 'sends no rate-limit headers',
    caughtBy: 'response.rate-limit-headers',
    only: ['listTags'],
    mutation: {
      response: (r) => {
        const headers = new Headers(r.headers);
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) headers.delete(name);
        return { ...r, headers };
      },
    },
  },
  {
    name: 'accepts an invalid phone number',
    caughtBy: 'negative.phone-format',
    only: ['listConversations'],
    sandbox: { contract: contractWithoutPhoneRule() },
  },
  {
    name: 'ignores idempotency keys',
    caughtBy: 'idempotency.replay',
    only: ['idempotency.replay'],
    allowWrites: true,
    mutation: {
      request: (q) => {
        const headers = new Headers(q.headers);
        headers.delete('idempotency-key');
        return { ...q, headers };
      },
    },
  },
  {
    name: 'ignores scopes',
    caughtBy: 'auth.insufficient-scope',
    only: ['listTags'],
    // Every key the server sees becomes the all-scopes key: scopes make no difference any more.
    mutation: undefined,
  },
  {
    name: 'fails with a 5xx',
    caughtBy: 'response.no-5xx',
    only: ['listTags'],
    mutation: { response: (r, q) => (r.status === 200 && isPath(q.path, '/v2/api/tags') ? json({ ...r, status: 500 }, (b) => Object.assign(b, { error: { type: 'server_error', code: 'INTERNAL_SERVER_ERROR', message: 'boom', retryable: true, request_id: r.headers.get('x-request-id') } })) : r) },
  },
  {
    name: 'does not echo X-Request-Id',
    caughtBy: 'request-id.echo',
    only: ['listTags'],
    mutation: {
      response: (r, q) => {
        if (!q.headers.has('x-request-id')) return r;
        const headers = new Headers(r.headers);
        headers.set('x-request-id', 'req_AAAAAAAAAAAA');
        return json({ ...r, headers }, (b) => {
          if (b.error) (b.error as Record<string, unknown>).request_id = 'req_AAAAAAAAAAAA';
        });
      },
    },
  },
  {
    name: 'sends JSON without a Content-Type',
    caughtBy: 'response.content-type',
    only: ['listTags'],
    mutation: {
      response: (r) => {
        const headers = new Headers(r.headers);
        headers.delete('content-type');
        return { ...r, headers };
      },
    },
  },
  {
    name: 'allows a second thread on an item',
    caughtBy: 'threads.duplicate',
    only: ['threads.duplicate'],
    allowWrites: true,
    mutation: { response: (r) => (r.status === 409 && r.body.includes('THREAD_ALREADY_EXISTS') ? { ...r, status: 201, body: '{"data":{}}' } : r) },
  },
  {
    name: 'answers an undocumented method with 404',
    caughtBy: 'routing.wrong-method',
    only: ['routing.wrong-method'],
    mutation: { response: (r) => (r.status === 405 ? json({ ...r, status: 404 }, (b) => Object.assign(b.error as Record<string, unknown>, { code: 'ENDPOINT_NOT_FOUND', type: 'not_found_error' })) : r) },
  },
];

async function runAgainst(target: Target, mutant: Mutant) {
  const output = mkdtempSync(join(tmpdir(), 'svc-contract-mutant-'));
  outputs.push(output);
  const options: ContractOptions = {
    baseUrl: target.url,
    apiKey: target.apiKey,
    config: target.config,
    only: mutant.only,
    allowWrites: mutant.allowWrites === true,
    rate: 'off',
    quiet: true,
    print: false,
    reporters: ['json'],
    output,
  };
  const result = await runContract(options);
  const written = JSON.parse(readFileSync(join(output, 'report.json'), 'utf8')) as { failures: Array<{ check: string; message: string }> };
  return { result, failed: [...new Set(written.failures.map((f) => f.check))] };
}

describe('each mutant of the sandbox is caught by name', () => {
  for (const mutant of MUTANTS) {
    it(`${mutant.name}: ${mutant.caughtBy}`, async () => {
      const upstream = await sandbox(mutant.sandbox ?? {});
      const ignoreScopes: Mutation = {
        request: (q) => {
          const headers = new Headers(q.headers);
          if (headers.has('authorization') && upstream.config.keys.some((k) => headers.get('authorization')?.endsWith(k.key))) headers.set('authorization', `Api-Key ${upstream.apiKey}`);
          return { ...q, headers };
        },
      };
      const mutation = mutant.mutation ?? (mutant.name === 'ignores scopes' ? ignoreScopes : undefined);
      const target = mutation ? await mutatingProxy(upstream, mutation) : upstream;
      try {
        const { result, failed } = await runAgainst(target, mutant);
        expect(failed).toContain(mutant.caughtBy);
        // A broken server is reported through checks, never by crashing the suite.
        expect(failed).not.toContain('suite.error');
        expect(result.exitCode).toBe(1);
      } finally {
        if (target !== upstream) await target.close();
        await upstream.close();
      }
    });
  }

  it('a server that answers HTML to everything fails many checks and crashes none', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>hello</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const target = { url: `http://127.0.0.1:${port}`, apiKey: 'svc-contract-test-key', config: { keys: [], fixtures: {} }, close: async () => {} };
      const { result, failed } = await runAgainst(target, { name: 'html', caughtBy: '', only: [], allowWrites: true });
      expect(failed).toEqual(expect.arrayContaining(['response.schema', 'response.content-type', 'response.request-id', 'response.rate-limit-headers', 'auth.missing-key']));
      expect(failed).not.toContain('suite.error');
      expect(result.report.errors).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('the same subsets pass against the sandbox itself (the mutation is what fails them)', async () => {
    const upstream = await sandbox();
    const proxied = await mutatingProxy(upstream, {});
    try {
      const subsets = new Map(MUTANTS.map((m) => [m.only.join(','), m]));
      for (const mutant of subsets.values()) {
        const { result, failed } = await runAgainst(proxied, mutant);
        expect(failed, mutant.only.join(',')).toEqual([]);
        expect(result.report.summary.checks.passed, mutant.only.join(',')).toBeGreaterThan(0);
        expect(result.report.operations.flatMap((op) => op.checks).some((c) => c.id === mutant.caughtBy && c.status === 'passed'), mutant.caughtBy).toBe(true);
      }
    } finally {
      await proxied.close();
      await upstream.close();
    }
  });
});
