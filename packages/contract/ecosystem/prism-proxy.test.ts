// Prism's validating proxy in front of a fresh sandbox while the contract suite (the full profile
// with writes) runs through it: every violation Prism reports, in the sl-violations header of
// each answer, is either on a request the suite sent invalid on purpose and the sandbox refused,
// or a limit of Prism's own listed by name in ./prism-allowlist.ts; the test fails on anything else.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContract } from '../src/run.js';
import { json, mutatingProxy, sandbox, type Target } from '../test/support/servers.js';
import { allowlistEntryOf, PRISM_ALLOWLIST, type Reported, suiteFailureAllowed } from './prism-allowlist.js';
import { type RunningPrismProxy, startPrismProxy } from './support/prism-proxy.js';

const require = createRequire(import.meta.url);
const bundlePath = require.resolve('@svc/openapi/openapi.json');

let upstream: Target;
let prism: RunningPrismProxy;
let recorder: Target;
const reported: Reported[] = [];

beforeAll(async () => {
  // Rate limits off on the sandbox and the suite unpaced (--rate off): the run takes seconds, not
  // 80; the X-RateLimit-* headers still carry the documented budgets, so Prism checks them.
  upstream = await sandbox();
  prism = await startPrismProxy(bundlePath, upstream.url);
  // Between the suite and Prism, a hop that only reads each answer's sl-violations header.
  recorder = await mutatingProxy(
    { ...upstream, url: prism.url },
    {
      response(response, request) {
        const header = response.headers.get('sl-violations');
        for (const violation of header ? JSON.parse(header) : [])
          reported.push({ method: request.method, path: request.path, status: response.status, ...violation });
        return response;
      },
    },
  );
});

afterAll(async () => {
  await recorder?.close();
  await prism?.close();
  await upstream?.close();
});

const describeViolation = (v: Reported) =>
  `${v.method} ${v.path} -> ${v.status}: ${v.severity} ${v.location.join('.')} [${v.code}] ${v.message}`;

describe("Prism's validating proxy in front of the sandbox, the contract suite running through it", () => {
  it('reports no violation the sandbox could fix; each one it does report is accounted for', async () => {
    const result = await runContract({
      quiet: true,
      print: false,
      rate: 'off',
      profile: 'full',
      allowWrites: true,
      baseUrl: recorder.url,
      apiKey: upstream.apiKey,
      config: upstream.config,
    });
    // The whole suite went through Prism: every documented operation was exercised.
    const { exercised, documented } = result.report.coverage.operations;
    expect(exercised).toBe(documented);
    const unexplained = reported.filter((v) => !allowlistEntryOf(v)).map(describeViolation);
    expect(unexplained).toEqual([]);
    // No response of the sandbox broke the contract in Prism's eyes.
    expect(reported.filter((v) => v.location[0] === 'response').map(describeViolation)).toEqual([]);
    // Every entry of the allowlist is still needed.
    const used = new Set(reported.map((v) => allowlistEntryOf(v)?.name));
    expect(PRISM_ALLOWLIST.map((entry) => entry.name).filter((name) => !used.has(name))).toEqual([]);
    // The suite's own verdict through Prism: only what Prism answers itself fails.
    const failures = result.report.failures.filter((f) => !suiteFailureAllowed(f));
    expect(failures.map((f) => `${f.operationId} ${f.check}: ${f.message} (${f.status} ${f.responseBody})`)).toEqual(
      [],
    );
    expect(result.report.failures.filter(suiteFailureAllowed).length).toBeGreaterThan(0);
  });

  it('would catch a sandbox answer that breaks the contract: a violation no entry explains', async () => {
    // The same proxy in front of a sandbox whose user answers lose their `data`.
    const broken = await mutatingProxy(upstream, {
      response: (response) => json(response, (body) => delete body.data),
    });
    const brokenPrism = await startPrismProxy(bundlePath, broken.url);
    try {
      const answer = await fetch(`${brokenPrism.url}/v2/api/users/usr-4TgB81cd`, {
        headers: { authorization: `Api-Key ${upstream.apiKey}` },
      });
      const violations: Reported[] = JSON.parse(answer.headers.get('sl-violations') ?? '[]').map((v: object) => ({
        method: 'GET',
        path: '/v2/api/users/usr-4TgB81cd',
        status: answer.status,
        ...v,
      }));
      expect(violations.map((v) => [v.location.join('.'), v.code, allowlistEntryOf(v)?.name])).toEqual([
        ['response.body', 'required', undefined],
      ]);
    } finally {
      await brokenPrism.close();
      await broken.close();
    }
  });
});
