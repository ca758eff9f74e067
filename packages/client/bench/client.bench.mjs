// What the client costs per call: 5,000 sequential GETs through createSvcClient() against a bare
// node:http server that answers fixed bytes, next to the same 5,000 calls with raw fetch, in the
// same run. Client-side rate limiting is off (it would only measure the 20/s budget) and nothing
// fails, so retries never fire: the difference is auth, ids, middleware, parsing and bookkeeping.
// Best of three interleaved rounds. Not a test: `pnpm --filter @svc/api-client bench` after a build; writes bench/results.json.
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createSvcClient } from '../dist/index.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 5000);
const body = JSON.stringify({ data: [{ name: 'VIP' }, { name: 'Follow up' }] });
const server = createServer((_request, response) => {
  response.writeHead(200, { 'Content-Type': 'application/json', 'X-Request-Id': 'req_8fK2mQ9xZ4aB' });
  response.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${server.address().port}`;
const apiKey = 'bench-key-not-a-secret';

async function time(label, call) {
  for (let i = 0; i < 200; i++) await call(); // warm up sockets and JIT
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await call();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(`${label}: ${CALLS} calls in ${ms.toFixed(0)} ms (${((ms * 1000) / CALLS).toFixed(1)} µs/call)`);
  return (ms * 1000) / CALLS;
}

const rawCall = async () => {
  const response = await fetch(`${baseUrl}/v2/api/tags`, { headers: { Authorization: `Api-Key ${apiKey}` } });
  await response.json();
};
const svc = createSvcClient({ baseUrl, apiKey, rateLimit: false });
const clientCall = async () => {
  const { error } = await svc.GET('/v2/api/tags');
  if (error) throw new Error('unexpected error from the bench server');
};
// Interleaved rounds, best of each: whichever runs first would otherwise pay for warming up.
const ROUNDS = 3;
let raw = Infinity;
let client = Infinity;
for (let round = 1; round <= ROUNDS; round++) {
  raw = Math.min(raw, await time(`round ${round}, raw fetch`, rawCall));
  client = Math.min(client, await time(`round ${round}, @svc/api-client`, clientCall));
}
server.close();

const overhead = client - raw;
console.log(`overhead: ${overhead.toFixed(1)} µs per call (${(client / raw).toFixed(2)}x raw fetch)`);
const results = {
  date: new Date().toISOString(),
  node: process.version,
  calls: CALLS,
  figures: [
    { name: `client call, ${CALLS} sequential GETs (overhead ${overhead.toFixed(1)} µs/call)`, value: Number(client.toFixed(1)), unit: 'µs/call', peer: 'raw fetch', peerValue: Number(raw.toFixed(1)), ratio: Number((client / raw).toFixed(2)) },
  ],
};
writeFileSync(fileURLToPath(new URL('./results.json', import.meta.url)), `${JSON.stringify(results, null, 2)}\n`);
