// The adversarial benchmark (issue 15): replays a corpus of hostile requests against the sandbox
// and the mock, one at a time, while an ordinary client (in a worker thread, so the attacker's
// own work cannot delay its clock) sends plain reads and measures their latency. Per case it
// prints the hostile request's server time: the CPU time the server process spent on it, which
// the server reports through a bench-only preload (scripts/bench-cpu-hook.cjs) over an IPC
// channel, so that other processes competing for the cores barely move it; beside it the wall
// time at the attacker (over loopback: an upper bound, and noise on a loaded machine). Requests
// answered before the HTTP layer hands them over (malformed HTTP) have no CPU figure. It also
// prints the ordinary client's p99 under the attack beside its p99 without it, and the server's
// RSS before and after the whole corpus. Targets: no hostile request over 50 ms of server time,
// the ordinary p99 under attack at most 2x its quiet p99, RSS after within 100 MB of the start.
//
// Not a test: `pnpm bench` runs it after the package benchmarks (or `node scripts/hostile-bench.mjs`
// after a build). It writes bench/hostile.json, which the harness folds into its table.
// BENCH_HOSTILE_SECONDS (default 2) is the length of each phase. BENCH_HOSTILE_CPU_PROF=<dir>
// runs each server under `node --cpu-prof` and leaves its profile in <dir>. BENCH_HOSTILE_ONLY=<text>
// runs only the cases whose name contains <text> (to profile one case).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const root = fileURLToPath(new URL('..', import.meta.url));
const seconds = Number(process.env.BENCH_HOSTILE_SECONDS ?? 2);
const KEY = 'sbx_demo_full_access';
const auth = { Authorization: `Api-Key ${KEY}` };
const ORDINARY_PATH = '/v2/api/threads/cth-5Lm1zX7e';
const docsDir = join(root, 'apps/docs/dist');
const cpuHook = join(root, 'scripts/bench-cpu-hook.cjs');
const cpuProfDir = process.env.BENCH_HOSTILE_CPU_PROF;
const only = process.env.BENCH_HOSTILE_ONLY;

// CPU time per hostile request, as the server reports it (see bench-cpu-hook.cjs).
const cpuById = new Map();
let probeId = 0; // the id the current hostile request carries in x-bench-id; 0 outside a run
let serverPid = 0; // the server under test, for parked()
let probes = 0; // ids are never reused, so a phase never picks up an earlier phase's reports

/** Starts a server's CLI and resolves with its URL and pid once it prints "listening on <url>". */
function start(args) {
  return new Promise((resolve, reject) => {
    const flags = ['--require', cpuHook, ...(cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : [])];
    const child = spawn(process.execPath, [...flags, ...args], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    child.on('message', (m) => cpuById.set(Number(m.id), m));
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve({ url, pid: child.pid, stop: () => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))) });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${output}`)));
  });
}

function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
}

// The ordinary client: sequential keep-alive reads for `seconds`, in its own thread.
const ORDINARY = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { url, headers, ms } = workerData;
  const times = [];
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    times.push(performance.now() - t);
  }
  parentPort.postMessage(times);
})();
`;

function ordinary(base) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(ORDINARY, { eval: true, workerData: { url: `${base}${ORDINARY_PATH}`, headers: auth, ms: seconds * 1000 } });
    worker.once('message', (times) => resolve(times));
    worker.once('error', reject);
  });
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const round = (n) => Math.round(n * 10) / 10;

/** Raw bytes over a socket; resolves with the status line (or '' when closed without one). */
function raw(base, bytes) {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (c) => (text += c));
    socket.on('close', () => resolve(text.split('\r\n')[0]));
    socket.on('error', () => resolve(text.split('\r\n')[0]));
    socket.end(bytes);
  });
}

async function send(base, { method = 'GET', path, headers = {}, body }) {
  const probe = probeId ? { 'x-bench-id': String(probeId) } : {};
  const res = await fetch(`${base}${path}`, { method, headers: { ...auth, ...probe, ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers }, body });
  await res.arrayBuffer();
  return res.status;
}

/** Opens `count` GETs of a large file and never reads them: slow readers. */
const readerSockets = [];
function slowReaders(base, path, count) {
  const { hostname, port } = new URL(base);
  const requests = [];
  readerSockets.length = 0;
  for (let i = 0; i < count; i++) {
    const req = httpRequest({ host: hostname, port, path, agent: false }, (res) => res.pause());
    req.on('error', () => {});
    req.on('socket', (socket) => readerSockets.push(socket));
    req.end();
    requests.push(req);
  }
  return () => requests.forEach((r) => r.destroy());
}

/** CPU time (user + system) the process has used, in ms, at the kernel's 10 ms resolution. */
function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Resolves once the slow readers are parked: their sockets stop receiving and the server stops
 * working for them. The second matters: the server goes on filling the loopback's socket buffers
 * (megabytes per reader) for a second or two after the readers' own counts stop, and a request
 * timed then measured that, not the cost of being one more reader.
 */
async function parked() {
  let last = -1;
  let lastCpu = cpuMsOf(serverPid);
  for (;;) {
    await new Promise((r) => setTimeout(r, 300));
    const total = readerSockets.reduce((sum, s) => sum + s.bytesRead, 0);
    const cpu = cpuMsOf(serverPid);
    if (total === last && cpu - lastCpu <= 20) return;
    last = total;
    lastCpu = cpu;
  }
}

let keyCounter = 0;
let hostileThread = 'cth-5Lm1zX7e';
let closeReaders = () => {};
const ids30k = JSON.stringify({ ids: Array.from({ length: 30_000 }, () => 'x') });
const ids90k = JSON.stringify({ ids: Array.from({ length: 90_000 }, () => 'x') }); // over the 256 KiB cap
// Both just under the 256 KiB body cap: the largest bodies a server parses.
const unknownFields = JSON.stringify(Object.fromEntries(Array.from({ length: 18_000 }, (_, i) => [`f${i}`, i])));
const deep = `{"a":${'['.repeat(130_000)}${']'.repeat(130_000)}}`;
const hostileComment = JSON.stringify({ content: '@['.repeat(2000) });
const longKey = 'k'.repeat(8192);

/** The corpus: each case's `run` sends one hostile request (and returns its status). */
const corpus = [
  { name: 'batch of 30 000 ids (270 KB)', run: (b) => send(b, { method: 'POST', path: '/v2/api/conversations/items/batch', body: ids30k }) },
  { name: 'batch of 90 000 ids (810 KB)', run: (b) => send(b, { method: 'POST', path: '/v2/api/conversations/items/batch', body: ids90k }) },
  { name: 'size = 16 000 digits + x', run: (b) => send(b, { path: `/v2/api/conversations?size=${'1'.repeat(16_000)}x` }) },
  { name: '18 000 unknown fields on PATCH agent (250 KB)', run: (b) => send(b, { method: 'PATCH', path: '/v2/api/numbers/%2B14155550123/agent', body: unknownFields }) },
  { name: 'JSON nested 130 000 deep (260 KB)', run: (b) => send(b, { method: 'POST', path: '/v2/api/threads', body: deep }) },
  {
    name: 'GET a thread of 1000 comments of "@[" x 2000 (4 MB)',
    // A thread of its own (the ordinary client reads another one).
    setup: async (b) => {
      const res = await fetch(`${b}/v2/api/threads`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ entity_type: 'CALL', entity_id: 'cll-6Mn3bV8q', content: 'hostile' }) });
      hostileThread = (await res.json()).data?.id ?? 'cth-5Lm1zX7e';
      for (let i = 0; i < 1000; i++) await send(b, { method: 'POST', path: `/v2/api/threads/${hostileThread}/comments`, body: hostileComment });
    },
    run: (b) => send(b, { path: `/v2/api/threads/${hostileThread}` }),
  },
  { name: 'keyed write with a fresh 8 kB Idempotency-Key', run: (b) => send(b, { method: 'PUT', path: '/v2/api/conversations/%2B14155550123/action', body: '{"action":"READ"}', headers: { 'Idempotency-Key': `${longKey}${++keyCounter}` } }) },
  { name: 'read with a made-up 8 kB API key', run: (b) => send(b, { path: '/v2/api/tags', headers: { Authorization: `Api-Key ${longKey}${++keyCounter}` } }) },
  { name: 'Prefer with a 15 kB malformed token', run: (b) => send(b, { path: '/v2/api/tags', headers: { Prefer: `code=4 ${'4'.repeat(15_000)}` } }) },
  { name: 'GET //evil.example/v2/api/users', run: (b) => raw(b, `GET //evil.example/v2/api/users HTTP/1.1\r\nHost: x\r\nAuthorization: Api-Key ${KEY}\r\nConnection: close\r\n\r\n`) },
  { name: 'malformed HTTP: a bad header byte', run: (b) => raw(b, 'GET /v2/api/tags HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n') },
  { name: 'malformed HTTP: two Content-Lengths', run: (b) => raw(b, 'POST /v2/api/threads HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}') },
  { name: 'malformed HTTP: a 100 kB URL', run: (b) => raw(b, `GET /v2/api/tags?q=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`) },
  {
    // 200 clients that ask for the reference page and never read it, held open for the whole
    // phase; the hostile request timed is one more reader of the same page, read whole.
    name: '/docs: the page read whole beside 200 slow readers',
    sandboxOnly: true,
    setup: async (b) => {
      closeReaders = slowReaders(b, '/docs/', 200);
      await parked();
    },
    run: (b) => send(b, { path: '/docs/' }),
    teardown: () => closeReaders(),
  },
];

async function attack(base, kase) {
  const times = [];
  const ids = [];
  const statuses = new Set();
  const end = performance.now() + seconds * 1000;
  const running = ordinary(base);
  while (performance.now() < end) {
    probeId = ++probes;
    ids.push(probeId);
    const t = performance.now();
    statuses.add(await kase.run(base));
    times.push(performance.now() - t);
  }
  const ordinaryTimes = await running;
  const lastId = probes;
  probeId = 0;
  // The server reports a request once its response is finished; the last report may trail the
  // client's read by a moment.
  for (let i = 0; i < 20 && !cpuById.has(lastId) && cpuById.size > 0; i++) await new Promise((r) => setTimeout(r, 50));
  const reports = ids.filter((id) => cpuById.has(id)).map((id) => cpuById.get(id));
  return { times, cpu: reports.map((r) => r.cpuMs), serverWall: reports.map((r) => r.serverWallMs), statuses: [...statuses], ordinaryTimes };
}

async function benchServer(label, args) {
  const server = await start(args);
  serverPid = server.pid;
  const rows = [];
  try {
    await ordinary(server.url); // warm-up
    const quiet = percentile(await ordinary(server.url), 99);
    const rssBefore = rssMb(server.pid);
    for (const kase of corpus) {
      if ((kase.sandboxOnly && label !== 'sandbox') || (only && !kase.name.includes(only))) continue;
      if (kase.setup) await kase.setup(server.url);
      const { times, cpu, serverWall, statuses, ordinaryTimes } = await attack(server.url, kase);
      kase.teardown?.();
      rows.push({
        server: label,
        case: kase.name,
        answered: statuses.join(' '),
        'hostile n': times.length,
        'cpu median ms': cpu.length ? round(percentile(cpu, 50)) : null,
        'cpu p99 ms': cpu.length ? round(percentile(cpu, 99)) : null,
        'cpu max ms': cpu.length ? round(Math.max(...cpu)) : null,
        'server wall max ms': serverWall.length ? round(Math.max(...serverWall)) : null,
        'wall median ms': round(percentile(times, 50)),
        'wall max ms': round(Math.max(...times)),
        'ordinary p99 ms': round(percentile(ordinaryTimes, 99)),
        'quiet p99 ms': round(quiet),
      });
    }
    const rssAfter = rssMb(server.pid);
    return { rows, rssBefore, rssAfter, quiet };
  } finally {
    await server.stop();
  }
}

const sandboxArgs = [join(root, 'packages/sandbox/dist/cli.js'), '--port', '0', '--no-rate-limit', ...(existsSync(docsDir) ? ['--docs', docsDir] : [])];
const mockArgs = [join(root, 'apps/mock/dist/cli.js'), '--port', '0'];
const results = { date: new Date().toISOString(), node: process.version, seconds, loadAverage: loadavg().map(round), servers: {} };
console.log(`load average at the start: ${results.loadAverage.join(' ')} (${availableParallelism()} cores)`);
for (const [label, args] of [['sandbox', sandboxArgs], ['mock', mockArgs]]) {
  console.log(`\n== hostile corpus against the ${label} ==`);
  const run = await benchServer(label, args);
  console.table(run.rows);
  console.log(`load average now: ${loadavg().map(round).join(' ')}`);
  console.log(`${label} RSS: ${run.rssBefore} MB before the corpus, ${run.rssAfter} MB after (${run.rssAfter - run.rssBefore >= 0 ? '+' : ''}${run.rssAfter - run.rssBefore} MB)`);
  results.servers[label] = run;
}

// The shape the root harness reads: one row per figure, each beside its peer.
results.figures = Object.entries(results.servers).flatMap(([label, run]) => [
  // Server CPU time where the server reports it; wall time at the client for malformed HTTP.
  ...run.rows.map((r) => {
    const [what, value] = r['cpu max ms'] === null ? ['slowest hostile request, wall', r['wall max ms']] : ['slowest hostile request, server CPU', r['cpu max ms']];
    return { name: `${label} hostile: ${r.case}, ${what}`, value, unit: 'ms', peer: 'target', peerValue: 50, ratio: round(value / 50) };
  }),
  ...run.rows.map((r) => ({ name: `${label} hostile: ${r.case}, ordinary p99 under it`, value: r['ordinary p99 ms'], unit: 'ms', peer: 'quiet p99', peerValue: r['quiet p99 ms'], ratio: r['quiet p99 ms'] ? round(r['ordinary p99 ms'] / r['quiet p99 ms']) : null })),
  { name: `${label} hostile: RSS after the corpus`, value: run.rssAfter, unit: 'MB', peer: 'RSS before', peerValue: run.rssBefore, ratio: round(run.rssAfter / run.rssBefore) },
]);
mkdirSync(join(root, 'bench'), { recursive: true });
const out = join(root, 'bench', 'hostile.json');
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`wrote ${out}`);
