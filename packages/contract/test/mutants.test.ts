// The suite must find real deviations: each mutant of the sandbox (test/support/mutants.ts) is
// caught by name, the failing check's id in the JSON report. The mutants are split over two files
// (even and odd places) so that two vitest workers run them side by side; this one also holds
// the servers that are broken everywhere, or harmlessly different.
import { afterAll, describe, expect, it } from 'vitest';
import { CONTROLS, itPassesEach } from './support/controls.js';
import {
  itCatchesEachByName,
  type Mutant,
  rateHeaders,
  removeOutputs,
  runAgainst,
  UNPACED,
} from './support/mutants.js';
import { mutatingProxy, sandbox } from './support/servers.js';

afterAll(removeOutputs);

const HALF: Mutant[] = UNPACED.filter((_, i) => i % 2 === 0);

describe('each control, a harmless variation where the contract is open, passes', () => {
  itPassesEach(CONTROLS.filter((_, i) => i % 2 === 0));
});

describe('each mutant of the sandbox is caught by name', () => {
  itCatchesEachByName(HALF);

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
      const target = {
        url: `http://127.0.0.1:${port}`,
        apiKey: 'svc-contract-test-key',
        config: { keys: [], fixtures: {} },
        close: async () => {},
      };
      const { result, failed } = await runAgainst(target, { name: 'html', caughtBy: '', only: [], allowWrites: true });
      expect(failed).toEqual(
        expect.arrayContaining([
          'response.schema',
          'response.content-type',
          'response.request-id',
          'response.rate-limit-headers',
          'auth.missing-key',
        ]),
      );
      expect(failed).not.toContain('suite.error');
      // Nothing crashed; the only problems outside a check are that too much was skipped and
      // too little of the input reached (nothing succeeded).
      expect(result.report.errors).toEqual([
        expect.stringMatching(/^\d+ checks were skipped for want of configuration, more than --max-skipped 0/),
        expect.stringMatching(/^input coverage [\d.]+% is below --min-input-coverage 100%/),
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a harmless variation passes: application/json; charset=utf-8 on every response', async () => {
    const upstream = await sandbox();
    const proxied = await mutatingProxy(upstream, {
      response: (r) => {
        const headers = new Headers(r.headers);
        if (headers.get('content-type')?.startsWith('application/json'))
          headers.set('content-type', 'application/json; charset=utf-8');
        return { ...r, headers };
      },
    });
    try {
      const { result, failed } = await runAgainst(proxied, {
        name: 'charset',
        caughtBy: '',
        only: ['threads', 'custom-fields', 'users'],
        allowWrites: true,
      });
      expect(failed).toEqual([]);
      expect(result.exitCode).toBe(0);
    } finally {
      await proxied.close();
      await upstream.close();
    }
  });

  it('a harmless variation passes: other clients on the key (Remaining falls by several) and a Unix-time reset', async () => {
    const upstream = await sandbox();
    let used = 0;
    const proxied = await mutatingProxy(
      upstream,
      rateHeaders((h) => {
        used += 3;
        h.set('x-ratelimit-reset', '2000000000');
        h.set('x-ratelimit-remaining', String(Math.max(0, Number(h.get('x-ratelimit-limit')) - used)));
      }),
    );
    try {
      const { result, failed } = await runAgainst(proxied, {
        name: 'shared key',
        caughtBy: '',
        only: ['listTags', 'listUsers'],
      });
      expect(failed).toEqual([]);
      expect(result.exitCode).toBe(0);
      expect(
        result.report.operations
          .flatMap((op) => op.checks)
          .some((c) => c.id === 'response.rate-limit-window' && c.status === 'passed' && c.passed > 1),
      ).toBe(true);
    } finally {
      await proxied.close();
      await upstream.close();
    }
  });
});
