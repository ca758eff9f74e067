// What the client costs per call: sequential GETs through createSvcClient() against a bare
// node:http server that answers fixed bytes, side by side in the same run with openapi-fetch
// alone (the peer: `createClient<paths>()` with the Authorization header, nothing else) and with
// raw fetch. Client-side rate limiting is off (it would only measure the 20/s budget) and nothing
// fails, so retries never fire: the difference is auth, ids, idempotency, the retry and timeout
// machinery, and the result's metadata.
//
// Interleaved rounds, the order of the contenders rotating through every permutation, so that
// each runs in each position and after each other equally often (a window's place in the round
// moved its time by a fifth: with the order only reversed, the peer always ran second and the
// client first or last); each round gives a ratio of the client to openapi-fetch
// alone measured side by side, and the figure is the median of those ratios (and the median time
// of each contender), which a shared machine's bursts of load move least. Not a test:
// `pnpm --filter @svc/api-client bench` after a build; writes bench/results.json.

import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import createClient from 'openapi-fetch';
import { createSvcClient } from '../dist/index.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 500);
/** A multiple of the 6 orders of the 3 contenders (BENCH_ROUNDS is rounded up to one). */
const ROUNDS = Math.ceil(Number(process.env.BENCH_ROUNDS ?? 24) / 6) * 6;
/** The overhead the client may add to openapi-fetch alone (issue 16: at most 1.10×). */
const BUDGET_RATIO = 1.1;

const body = JSON.stringify({ data: [{ name: 'VIP' }, { name: 'Follow up' }] });
const server = createServer((_request, response) => {
  response.writeHead(200, { 'Content-Type': 'application/json', 'X-Request-Id': 'req_8fK2mQ9xZ4aB' });
  response.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${server.address().port}`;
const apiKey = 'bench-key-not-a-secret';

/**
 * One window: wall time and this process's CPU time per call. The server runs in this process
 * too and answers every contender alike, so the CPU a call costs differs only by the contender;
 * other processes' load moves it far less than the wall time.
 */
async function time(call) {
  for (let i = 0; i < 200; i++) await call(); // warm up sockets and JIT
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await call();
  const cpu = process.cpuUsage(cpuStart);
  return {
    wall: Number(process.hrtime.bigint() - start) / 1e3 / CALLS,
    cpu: (cpu.user + cpu.system) / CALLS,
  };
}

const openapiFetch = createClient({ baseUrl, headers: { Authorization: `Api-Key ${apiKey}` } });
const svc = createSvcClient({ baseUrl, apiKey, rateLimit: false });
const contenders = {
  'raw fetch': async () => {
    const response = await fetch(`${baseUrl}/v2/api/tags`, { headers: { Authorization: `Api-Key ${apiKey}` } });
    await response.json();
  },
  'openapi-fetch alone': async () => {
    const { error } = await openapiFetch.GET('/v2/api/tags');
    if (error) throw new Error('unexpected error from the bench server');
  },
  '@svc/api-client': async () => {
    const { error } = await svc.GET('/v2/api/tags');
    if (error) throw new Error('unexpected error from the bench server');
  },
};
const names = Object.keys(contenders);
const permutations = (list) =>
  list.length <= 1
    ? [list]
    : list.flatMap((first, i) => permutations(list.toSpliced(i, 1)).map((rest) => [first, ...rest]));
const orders = permutations(names);
const times = Object.fromEntries(names.map((name) => [name, []]));
const cpuTimes = Object.fromEntries(names.map((name) => [name, []]));
const ratios = { client: [], peer: [], clientByCpu: [] };
for (let round = 1; round <= ROUNDS; round++) {
  const line = [];
  for (const name of orders[(round - 1) % orders.length]) {
    const { wall, cpu } = await time(contenders[name]);
    times[name].push(wall);
    cpuTimes[name].push(cpu);
    line.push(`${name} ${wall.toFixed(1)} µs (CPU ${cpu.toFixed(1)})`);
  }
  const [raw, peer, client] = names.map((name) => times[name].at(-1));
  const [peerCpu, clientCpu] = names.slice(1).map((name) => cpuTimes[name].at(-1));
  ratios.client.push(client / peer);
  ratios.peer.push(peer / raw);
  ratios.clientByCpu.push(clientCpu / peerCpu);
  console.log(
    `round ${round}: ${line.join(', ')}; ratio ${(client / peer).toFixed(3)}, by CPU ${(clientCpu / peerCpu).toFixed(3)}`,
  );
}
server.close();

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const client = median(times['@svc/api-client']);
const peer = median(times['openapi-fetch alone']);
const raw = median(times['raw fetch']);
const ratio = median(ratios.client);
const ratioByCpu = median(ratios.clientByCpu);
const clientCpu = median(cpuTimes['@svc/api-client']);
const peerCpu = median(cpuTimes['openapi-fetch alone']);
console.log(
  `medians: raw fetch ${raw.toFixed(1)} µs, openapi-fetch alone ${peer.toFixed(1)} µs (${median(ratios.peer).toFixed(2)}x raw), ` +
    `@svc/api-client ${client.toFixed(1)} µs; client / openapi-fetch alone ${ratio.toFixed(3)} (median of ${ROUNDS} rounds' ratios, ` +
    `${Math.min(...ratios.client).toFixed(3)} to ${Math.max(...ratios.client).toFixed(3)}; budget ${BUDGET_RATIO}x); ` +
    `CPU per call: client ${clientCpu.toFixed(1)} µs, openapi-fetch alone ${peerCpu.toFixed(1)} µs, ratio ${ratioByCpu.toFixed(3)} (median of the rounds')`,
);
const round1 = (value) => Number(value.toFixed(1));
const results = {
  date: new Date().toISOString(),
  node: process.version,
  calls: CALLS,
  rounds: ROUNDS,
  figures: [
    {
      name: `client call, ${CALLS} sequential GETs, median of ${ROUNDS} interleaved rounds (overhead ${(client - peer).toFixed(1)} µs/call over openapi-fetch alone)`,
      value: round1(client),
      unit: 'µs/call',
      peer: 'openapi-fetch alone',
      peerValue: round1(peer),
      ratio: Number(ratio.toFixed(3)),
    },
    {
      name: `client call, CPU per call (client and the in-process server), median of ${ROUNDS} rounds`,
      value: round1(clientCpu),
      unit: 'µs/call',
      peer: 'openapi-fetch alone',
      peerValue: round1(peerCpu),
      ratio: Number(ratioByCpu.toFixed(3)),
    },
    {
      name: `openapi-fetch alone, ${CALLS} sequential GETs`,
      value: round1(peer),
      unit: 'µs/call',
      peer: 'raw fetch',
      peerValue: round1(raw),
      ratio: Number(median(ratios.peer).toFixed(2)),
    },
  ],
};
writeFileSync(fileURLToPath(new URL('./results.json', import.meta.url)), `${JSON.stringify(results, null, 2)}\n`);
if (ratio > BUDGET_RATIO) {
  console.error(`client bench: ${ratio.toFixed(2)}x openapi-fetch alone is over the ${BUDGET_RATIO}x budget`);
  // A warning, not a failure: one noisy run on a shared machine must not break `pnpm bench`.
}
