// Every operation of the bundle: the success example is served as documented, and every
// documented response example (errors included) is reachable with Prefer and conforms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledContract } from '../src/index.js';
import { Harness } from './support/harness.js';
import { responseExamples, sampleBody, urlFor } from './support/samples.js';

const contract = bundledContract();
let harness: Harness;

beforeAll(async () => {
  harness = await Harness.start();
});
afterAll(() => harness.close());

describe.each(contract.operations.map((op) => [op.operationId, op] as const))('%s', (_, op) => {
  const examples = responseExamples(contract, op);
  const url = urlFor(contract, op);
  const body = sampleBody(contract, op);

  it('serves the first success example for a valid request', async () => {
    const sent = await harness.send(op.method, url, { ...(body ? { body } : {}) });
    expect(sent.status).toBeGreaterThanOrEqual(200);
    expect(sent.status).toBeLessThan(300);
    const success = examples.find((e) => /^2/.test(e.key));
    if (success) expect(sent.body).toEqual(success.value);
    else expect(sent.text).toBe('');
  });

  it.each(examples.map((e) => [`${e.key} ${e.name}`, e] as const))('Prefer serves %s', async (_, example) => {
    const code = /^\d{3}$/.test(example.key) ? example.key : undefined;
    const prefer = code ? `code=${code}, example=${example.name}` : `example=${example.name}`;
    const sent = await harness.send(op.method, url, {
      ...(body ? { body } : {}),
      headers: { Prefer: prefer, 'X-Request-Id': `ex-${op.operationId}-${example.name}` },
      expectServerError: /^5/.test(example.key),
    });
    if (code) expect(sent.status).toBe(Number(code));
    if (sent.status >= 400) {
      // The example as documented, with this request's id.
      expect(sent.body).toEqual({
        ...example.value,
        error: { ...example.value.error, request_id: `ex-${op.operationId}-${example.name}` },
      });
    } else {
      expect(sent.body).toEqual(example.value);
    }
  });

  it('serves conforming generated responses with Prefer: dynamic=true', async () => {
    // Generation is random: several draws, each checked by the harness.
    for (let i = 0; i < 5; i++) {
      const sent = await harness.send(op.method, url, {
        ...(body ? { body } : {}),
        headers: { Prefer: 'dynamic=true' },
      });
      expect(sent.status).toBeLessThan(300);
    }
  });
});

it('reaches every error code the operations list, each through an example of its own', () => {
  const missing: string[] = [];
  for (const op of contract.operations) {
    for (const [status, codes] of op.codesByStatus) {
      for (const code of codes)
        if (!harness.seen.has(`${op.operationId} ${status} ${code}`))
          missing.push(`${op.operationId} ${status} ${code}`);
    }
  }
  expect(missing).toEqual([]);
});
