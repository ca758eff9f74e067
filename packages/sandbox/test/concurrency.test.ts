// 50 simultaneous identical keyed POSTs over a real socket create exactly one thread: one request
// runs, the others get its stored response replayed or 409 OTHER_TRANSACTION_IN_PROGRESS.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningSandbox, startSandboxServer } from '../src/index.js';
import { KEYS } from './support/harness.js';

let running: RunningSandbox;

beforeAll(async () => {
  running = await startSandboxServer({ port: 0, host: '127.0.0.1', rateLimit: false });
});

afterAll(async () => {
  await running.close();
});

async function post(body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${running.url}/v2/api/threads`, {
    method: 'POST',
    headers: { Authorization: `Api-Key ${KEYS.full}`, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const parsed: unknown = JSON.parse(text);
  const operation = running.sandbox.contract.operationsById.get('createThread')!;
  expect(running.sandbox.contract.validateResponse(operation, response.status, response.headers, parsed)).toEqual([]);
  return {
    status: response.status,
    text,
    replayed: response.headers.get('idempotency-replayed'),
    code: (parsed as { error?: { code: string } }).error?.code,
  };
}

const threadsOn = (entityId: string) =>
  running.sandbox.store.team('team-harbor').threads.filter((t) => t.entity_id === entityId);

it('50 simultaneous keyed POST /v2/api/threads create exactly one thread', async () => {
  const body = { entity_type: 'CALL', entity_id: 'cll-4Xs8mN1c', content: 'Race @[Leo Park](usr-7Kp2Wn5d)' };
  const results = await Promise.all(Array.from({ length: 50 }, () => post(body, { 'Idempotency-Key': 'race-1' })));
  expect(threadsOn('cll-4Xs8mN1c')).toHaveLength(1);
  const executed = results.filter((r) => r.status === 201 && r.replayed === null);
  const replayed = results.filter((r) => r.status === 201 && r.replayed === 'true');
  const waiting = results.filter((r) => r.status === 409);
  expect(executed).toHaveLength(1);
  expect(replayed.length + waiting.length).toBe(49);
  for (const r of replayed) expect(r.text).toBe(executed[0]!.text);
  for (const r of waiting) expect(r.code).toBe('OTHER_TRANSACTION_IN_PROGRESS');
  expect(running.sandbox.internalErrors).toBe(0);
});

it('50 simultaneous POSTs without a key still create one thread; the rest are THREAD_ALREADY_EXISTS', async () => {
  const body = { entity_type: 'TEXT_MESSAGE', entity_id: 'msg-7Ty4uI9o', content: 'Race without a key' };
  const results = await Promise.all(Array.from({ length: 50 }, () => post(body)));
  expect(threadsOn('msg-7Ty4uI9o')).toHaveLength(1);
  expect(results.filter((r) => r.status === 201)).toHaveLength(1);
  expect(results.filter((r) => r.code === 'THREAD_ALREADY_EXISTS')).toHaveLength(49);
});
