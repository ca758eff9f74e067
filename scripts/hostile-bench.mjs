// The adversarial benchmark (issues 15 and 25): replays a corpus of hostile requests against the
// sandbox, the mock and the validating proxy (svc-contract proxy, in front of a hostile upstream
// of its own: an endless answer, a gzip bomb, a 1 GiB answer), one at a time, while an ordinary client (in a worker thread, so the attacker's
// own work cannot delay its clock) sends plain reads and measures their latency. Per case it
// prints the hostile request's server time: the CPU time the server process spent on it, which
// the server reports through a bench-only preload (scripts/bench-cpu-hook.cjs) over an IPC
// channel, so that other processes competing for the cores barely move it; beside it the wall
// time at the attacker (over loopback: an upper bound, and noise on a loaded machine). Requests
// answered before the HTTP layer hands them over (malformed HTTP) have no CPU figure. It also
// prints the ordinary client's p99 under the attack beside its p99 without it, and the server's
// RSS before and after the whole corpus. The quiet p99 is measured again just before each case (the
// machine is shared, and its load moves within a run). Targets: no hostile request over 50 ms of server time,
// the ordinary p99 under attack at most 2x its quiet p99, RSS after within 100 MB of the start.
//
// The threat model (issue 15's "Why"): single small authenticated requests, within the rate
// limits. So a case whose requests carry a valid API key is PACED at that key's documented
// budget for the request's class (read from the bundle: contract.limits, e.g. 20 reads/s and
// 5 writes/s; the batch and search POSTs are writes), one request at a time: what one key may
// send. Its "x quiet" (the target) is measured under that pace. A case with no valid key
// (malformed HTTP, a made-up key, /docs) cannot be held to a key's budget, so it FLOODS: each
// request sent as soon as the last is answered. Keyed cases are flooded too, as a stress figure
// beside the target ("x quiet, flood"); the column "model" says which model the target uses.
// Server CPU per hostile request is taken over both phases.
//
// The machine's share: the attacker runs in this process, so its own work (building and
// uploading a 64 KB body, reading a 4 MB answer) and the kernel's loopback copies compete with
// the server and the ordinary client for the same cores. To tell that apart from the server's
// cost, each case is replayed a second time, the same requests at the same pace as its target
// column (paced or flooded), against a bare node:http sink in its own process that reads the
// whole request and answers as many bytes as the server did, while the ordinary client goes on
// reading the server under test: its p99 then ("benign p99") is what the traffic alone costs.
//
// Not a test: `pnpm bench` runs it after the package benchmarks (or `node scripts/hostile-bench.mjs`
// after a build). It writes bench/hostile.json, which the harness folds into its table.
// BENCH_HOSTILE_SECONDS (default 2) is the length of each phase. BENCH_HOSTILE_CPU_PROF=<dir>
// runs each server under `node --cpu-prof` and leaves its profile in <dir>. BENCH_HOSTILE_ONLY=<text>
// runs only the cases whose name contains <text> (to profile one case).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { invalidThread, VALIDATION_TARGET, validationCost } from './validation-cost.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const seconds = Number(process.env.BENCH_HOSTILE_SECONDS ?? 2);
const KEY = 'sbx_demo_full_access';
const auth = { Authorization: `Api-Key ${KEY}` };
const ORDINARY_PATH = '/v2/api/threads/cth-5Lm1zX7e';
const docsDir = join(root, 'apps/docs/dist');
const cpuHook = join(root, 'scripts/bench-cpu-hook.cjs');
const cpuProfDir = process.env.BENCH_HOSTILE_CPU_PROF;
const only = process.env.BENCH_HOSTILE_ONLY;
const { DEFAULT_BODY_LIMITS, loadContract } = await import(
  pathToFileURL(join(root, 'packages/spec-runtime/dist/index.js')).href
);
const CAP = DEFAULT_BODY_LIMITS.maxBytes;
const { limits } = loadContract(JSON.parse(readFileSync(join(root, 'spec/dist/openapi.json'), 'utf8')));

/** Requests per second one key may send with `method`: its class's documented budget. */
function budgetOf(method) {
  return limits.writeMethods.includes(method) ? limits.writeRequestsPerSecond : limits.readRequestsPerSecond;
}

// CPU time per hostile request, as the server reports it (see bench-cpu-hook.cjs).
const cpuById = new Map();
let probeId = 0; // the id the current hostile request carries in x-bench-id; 0 outside a run
let serverPid = 0; // the server under test, for parked()
let probes = 0; // ids are never reused, so a phase never picks up an earlier phase's reports

/** Starts a server's CLI and resolves with its URL and pid once it prints "listening on <url>". */
function start(args, { hook = true, env } = {}) {
  return new Promise((resolve, reject) => {
    const flags = hook
      ? ['--require', cpuHook, ...(cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : [])]
      : [];
    const child = spawn(process.execPath, [...flags, ...args], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      ...(env ? { env: { ...process.env, ...env } } : {}),
    });
    child.on('message', (m) => m?.id && cpuById.set(Number(m.id), m));
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const url = /listening on (http:\/\/[^\s,]+)/.exec(output)?.[1];
      if (url)
        resolve({
          url,
          pid: child.pid,
          child,
          stop: () =>
            new Promise((done) => {
              child.once('exit', done);
              child.kill('SIGTERM');
            }),
        });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${output}`)));
  });
}

function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
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
    const worker = new Worker(ORDINARY, {
      eval: true,
      workerData: { url: `${base}${ORDINARY_PATH}`, headers: auth, ms: seconds * 1000 },
    });
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

let answerBytes = []; // bytes on the wire of each answer in the current phase (for the sink)

async function send(base, { method = 'GET', path, headers = {}, body }) {
  const probe = probeId ? { 'x-bench-id': String(probeId) } : {};
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...auth, ...probe, ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body,
    });
    const read = await res.arrayBuffer();
    answerBytes.push(Number(res.headers.get('content-length') ?? read.byteLength));
    return res.status;
  } catch {
    return 'closed'; // the server closed the connection before the upload ended
  }
}

/**
 * The sink: a bare node:http server in its own process that reads each request whole and answers
 * `bytes` bytes (set per case over IPC), the same traffic as the server under test at the least
 * cost a server can have.
 */
const SINK = `
const http = require('node:http');
let body = Buffer.alloc(0);
process.on('message', (m) => { body = Buffer.alloc(m.bytes, 120); process.send('ok'); });
const server = http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => res.end(body));
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
`;

/**
 * A GET read whole as a browser would ask for it (brotli or gzip accepted), through node:http,
 * which leaves the bytes compressed: decompressing megabytes is the reader's work on its own
 * machine, and here it would only take the cores from the server and the ordinary client.
 */
function browserGet(base, path) {
  const { hostname, port } = new URL(base);
  const probe = probeId ? { 'x-bench-id': String(probeId) } : {};
  return new Promise((resolve) => {
    const req = httpRequest(
      { host: hostname, port, path, headers: { 'Accept-Encoding': 'br, gzip, deflate', ...probe } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk) => (bytes += chunk.length));
        res.on('end', () => {
          answerBytes.push(bytes);
          resolve(res.statusCode);
        });
        res.on('error', () => resolve('closed'));
      },
    );
    req.on('error', () => resolve('closed'));
    req.end();
  });
}

/** Opens `count` GETs of a large file and never reads them: slow readers. */
const readerSockets = [];
function slowReaders(base, path, count) {
  const { hostname, port } = new URL(base);
  const requests = [];
  readerSockets.length = 0;
  for (let i = 0; i < count; i++) {
    const req = httpRequest({ host: hostname, port, path, agent: false }, (res) => {
      res.pause();
    });
    req.on('error', () => {});
    req.on('socket', (socket) => readerSockets.push(socket));
    req.end();
    requests.push(req);
  }
  return () => {
    for (const r of requests) r.destroy();
  };
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

/** A GET of an endless answer, hung up after 1 MiB: the proxy must stop reading its upstream. */
function hangUpAfter(base, path, bytes) {
  const { hostname, port } = new URL(base);
  const probe = probeId ? { 'x-bench-id': String(probeId) } : {};
  return new Promise((resolve) => {
    const req = httpRequest({ host: hostname, port, path, headers: probe, agent: false }, (res) => {
      let got = 0;
      res.on('data', (chunk) => {
        got += chunk.length;
        if (got < bytes) return;
        answerBytes.push(got);
        req.destroy();
        resolve('cut');
      });
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve('cut'));
    req.end();
  });
}

/** A POST declaring `declared` bytes that hangs up once `sent` of them left. */
function hangUpMidBody(base, path, declared, sent) {
  const { hostname, port } = new URL(base);
  const probe = probeId ? { 'x-bench-id': String(probeId) } : {};
  return new Promise((resolve) => {
    const req = httpRequest({
      host: hostname,
      port,
      path,
      method: 'POST',
      agent: false,
      headers: { ...auth, ...probe, 'Content-Type': 'application/json', 'Content-Length': String(declared) },
    });
    req.on('error', () => resolve('cut'));
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.write(Buffer.alloc(sent, 0x20), () => {
      req.destroy();
      resolve('cut');
    });
  });
}

/** A POST with Expect: 100-continue and a binary body, sent once the server says continue. */
function expectContinue(base, path, body) {
  const { hostname, port } = new URL(base);
  const probe = probeId ? { 'x-bench-id': String(probeId) } : {};
  return new Promise((resolve) => {
    const req = httpRequest({
      host: hostname,
      port,
      path,
      method: 'POST',
      headers: {
        ...auth,
        ...probe,
        Expect: '100-continue',
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(body.length),
      },
    });
    req.on('error', () => resolve('closed'));
    req.on('continue', () => req.end(body));
    req.on('response', (res) => {
      let bytes = 0;
      res.on('data', (chunk) => {
        bytes += chunk.length;
      });
      res.on('end', () => {
        answerBytes.push(bytes);
        resolve(res.statusCode);
      });
    });
  });
}

/**
 * The proxy's upstream, in its own process: an endless answer, a gzip bomb (64 MiB of zeros in
 * about 64 KB), a 1 GiB answer, and {} to anything else (the ordinary client's reads).
 */
const HOSTILE_UPSTREAM = `
const http = require('node:http');
const bomb = require('node:zlib').gzipSync(Buffer.alloc(64 * 1024 * 1024));
const mb = Buffer.alloc(1024 * 1024);
const GIB = 1024 ** 3;
let thread = Buffer.alloc(0);
import(process.env.VALIDATION_COST_MODULE).then((m) => { thread = Buffer.from(m.invalidThread()); });
const pump = (res, total) => {
  let sent = 0;
  const more = () => { while (sent < total) { sent += mb.length; if (!res.write(mb)) return; } res.end(); };
  res.on('drain', more);
  more();
};
const server = http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    const path = req.url.split('?')[0];
    if (path === '/endless') return (res.writeHead(200, { 'content-type': 'application/json' }), pump(res, Infinity));
    if (path === '/bomb') return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(bomb);
    if (path === '/v2/api/threads/cth-invalid20k') return res.writeHead(200, { 'content-type': 'application/json' }).end(thread);
    if (path === '/gib') return (res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(GIB) }), pump(res, GIB));
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
`;

/** A raw request to the sandbox's webhook trigger at `base`, with these header lines (its own Host unless one is given). */
function trigger(base, lines, body = '{"topic":"CALL_RECEIVED","url":"http://127.0.0.1:9/"}') {
  const host = lines.some((l) => l.startsWith('Host:')) ? [] : [`Host: ${new URL(base).host}`];
  return `POST /__sandbox/webhooks/trigger HTTP/1.1\r\n${[...host, ...lines].join('\r\n')}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
}
const twoMiB = Buffer.alloc(2 * 1024 * 1024, 0xff);

let keyCounter = 0;
let hostileThread = 'cth-5Lm1zX7e';
let closeReaders = () => {};
// Hostile bodies as large as the body cap allows (the largest a server parses), and one over it.
const idCount = Math.floor((CAP - 9) / 4); // {"ids":["x","x",...]} is 9 + 4 bytes an id
const idsAtCap = JSON.stringify({ ids: Array.from({ length: idCount }, () => 'x') });
const ids90k = JSON.stringify({ ids: Array.from({ length: 90_000 }, () => 'x') });
const fieldEntries = [];
for (let size = 2, i = 0; size + `"f${i}":${i},`.length <= CAP; size += `"f${i}":${i},`.length, i++)
  fieldEntries.push([`f${i}`, i]);
const unknownFields = JSON.stringify(Object.fromEntries(fieldEntries));
const depth = Math.floor((CAP - 6) / 2);
const deep = `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
const kb = (text) => `${Math.round(text.length / 1000)} KB`;
const hostileComment = JSON.stringify({ content: '@['.repeat(2000) });
const longKey = 'k'.repeat(8192);

/**
 * The corpus: each case's `run` sends one hostile request (and returns its status). `keyed`: the
 * method of a request that carries a valid API key, which paces the case at that key's budget
 * for the method's class; without it the case has no valid key and floods.
 */
const corpus = [
  {
    name: `batch of ${idCount} ids (${kb(idsAtCap)}, at the cap)`,
    keyed: 'POST',
    run: (b) => send(b, { method: 'POST', path: '/v2/api/conversations/items/batch', body: idsAtCap }),
  },
  {
    name: `batch of 90 000 ids (${kb(ids90k)}, over the cap)`,
    keyed: 'POST',
    run: (b) => send(b, { method: 'POST', path: '/v2/api/conversations/items/batch', body: ids90k }),
  },
  {
    name: 'size = 16 000 digits + x',
    keyed: 'GET',
    run: (b) => send(b, { path: `/v2/api/conversations?size=${'1'.repeat(16_000)}x` }),
  },
  {
    name: `${fieldEntries.length} unknown fields on PATCH agent (${kb(unknownFields)})`,
    keyed: 'PATCH',
    run: (b) => send(b, { method: 'PATCH', path: '/v2/api/numbers/%2B14155550123/agent', body: unknownFields }),
  },
  {
    name: `JSON nested ${depth} deep (${kb(deep)})`,
    keyed: 'POST',
    run: (b) => send(b, { method: 'POST', path: '/v2/api/threads', body: deep }),
  },
  {
    name: 'GET a thread of 1000 comments of "@[" x 2000 (4 MB)',
    keyed: 'GET',
    // A thread of its own (the ordinary client reads another one).
    setup: async (b) => {
      const res = await fetch(`${b}/v2/api/threads`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ entity_type: 'CALL', entity_id: 'cll-6Mn3bV8q', content: 'hostile' }),
      });
      hostileThread = (await res.json()).data?.id ?? 'cth-5Lm1zX7e';
      for (let i = 0; i < 1000; i++)
        await send(b, { method: 'POST', path: `/v2/api/threads/${hostileThread}/comments`, body: hostileComment });
    },
    run: (b) => send(b, { path: `/v2/api/threads/${hostileThread}` }),
  },
  {
    name: 'keyed write with a fresh 8 kB Idempotency-Key',
    keyed: 'PUT',
    run: (b) =>
      send(b, {
        method: 'PUT',
        path: '/v2/api/conversations/%2B14155550123/action',
        body: '{"action":"READ"}',
        headers: { 'Idempotency-Key': `${longKey}${++keyCounter}` },
      }),
  },
  {
    name: 'read with a made-up 8 kB API key',
    servers: ['sandbox', 'mock', 'proxy'],
    run: (b) => send(b, { path: '/v2/api/tags', headers: { Authorization: `Api-Key ${longKey}${++keyCounter}` } }),
  },
  {
    name: 'Prefer with a 15 kB malformed token',
    keyed: 'GET',
    run: (b) => send(b, { path: '/v2/api/tags', headers: { Prefer: `code=4 ${'4'.repeat(15_000)}` } }),
  },
  {
    name: 'GET //evil.example/v2/api/users',
    keyed: 'GET',
    run: (b) =>
      raw(
        b,
        `GET //evil.example/v2/api/users HTTP/1.1\r\nHost: x\r\nAuthorization: Api-Key ${KEY}\r\nConnection: close\r\n\r\n`,
      ),
  },
  {
    name: 'malformed HTTP: a bad header byte',
    run: (b) => raw(b, 'GET /v2/api/tags HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n'),
  },
  {
    name: 'malformed HTTP: two Content-Lengths',
    run: (b) => raw(b, 'POST /v2/api/threads HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}'),
  },
  {
    name: 'malformed HTTP: a 100 kB URL',
    run: (b) => raw(b, `GET /v2/api/tags?q=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
  },
  {
    // 200 clients that ask for the reference page (uncompressed, the most bytes) and never read
    // it, held open for the whole phase; the hostile request timed is one more reader of the same
    // page, read whole as a browser asks for it.
    name: '/docs: the page read whole beside 200 slow readers',
    sandboxOnly: true,
    setup: async (b) => {
      closeReaders = slowReaders(b, '/docs/', 200);
      await parked();
    },
    run: (b) => browserGet(b, '/docs/'),
    teardown: () => closeReaders(),
  },
  // Issue 25: the proxy against a hostile upstream and a hostile client (the read with a made-up
  // key above runs against it too: a fresh key per request, whose cost must not grow).
  {
    name: 'proxy: an endless answer, the client hangs up after 1 MiB',
    servers: ['proxy'],
    run: (b) => hangUpAfter(b, '/endless', 1024 * 1024),
  },
  {
    name: 'proxy: a gzip bomb (64 MiB of zeros in 64 KB), asked with gzip',
    servers: ['proxy'],
    run: (b) => browserGet(b, '/bomb'),
  },
  {
    name: 'proxy: a 1 GiB answer read whole',
    servers: ['proxy'],
    run: (b) => browserGet(b, '/gib'),
  },
  {
    // Issue 36: the answer checked against getThread's schema used to cost the square of its comments.
    name: `proxy: a thread of 20 000 invalid comments (${kb(invalidThread())})`,
    servers: ['proxy'],
    run: (b) => send(b, { path: '/v2/api/threads/cth-invalid20k' }),
  },
  {
    name: 'proxy: a 10 MB POST hung up after 1 MB',
    servers: ['proxy'],
    run: (b) => hangUpMidBody(b, '/v2/api/threads', 10 * 1024 * 1024, 1024 * 1024),
  },
  {
    name: 'proxy: Expect: 100-continue with a 2 MiB binary body',
    servers: ['proxy'],
    run: (b) => expectContinue(b, '/v2/api/threads', twoMiB),
  },
  {
    name: 'Authorization: api-key<tab>abc (a short key, odd spelling)',
    servers: ['sandbox', 'mock', 'proxy'],
    run: (b) => send(b, { path: '/v2/api/tags', headers: { Authorization: 'api-key\tabc' } }),
  },
  // Issue 25: the developer routes against a hostile page (the mock has none: it answers 404).
  {
    name: 'trigger: a page of another origin',
    run: (b) =>
      raw(
        b,
        trigger(b, ['Origin: http://evil.example', `Authorization: Api-Key ${KEY}`, 'Content-Type: application/json']),
      ),
  },
  {
    name: 'trigger: a rebound Host',
    run: (b) =>
      raw(b, trigger(b, ['Host: evil.example', `Authorization: Api-Key ${KEY}`, 'Content-Type: application/json'])),
  },
  {
    name: 'trigger: a text/plain post without a key',
    run: (b) => raw(b, trigger(b, ['Content-Type: text/plain'])),
  },
  {
    name: 'trigger: 600 MB declared, 64 KiB sent',
    run: (b) =>
      raw(
        b,
        `POST /__sandbox/webhooks/trigger HTTP/1.1\r\nHost: ${new URL(b).host}\r\nAuthorization: Api-Key ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${600 * 1024 * 1024}\r\n\r\n${' '.repeat(64 * 1024)}`,
      ),
  },
  {
    name: 'malformed HTTP: no Host',
    servers: ['sandbox', 'mock', 'proxy'],
    run: (b) => raw(b, `GET /v2/api/tags HTTP/1.1\r\nAuthorization: Api-Key ${KEY}\r\nConnection: close\r\n\r\n`),
  },
  {
    name: 'malformed HTTP: two Hosts',
    servers: ['sandbox', 'mock', 'proxy'],
    run: (b) => raw(b, `GET /v2/api/tags HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n`),
  },
];

/** The servers a case runs against (default: the sandbox and the mock). */
const serversOf = (kase) => kase.servers ?? (kase.sandboxOnly ? ['sandbox'] : ['sandbox', 'mock']);

/** The pace of a case's target column: its key's budget (requests per second), or null (flood). */
const paceOf = (kase) => (kase.keyed ? budgetOf(kase.keyed) : null);

/**
 * Sends the case's requests to `target`, one at a time, while the ordinary client reads `base`:
 * at `rate` requests per second (each sent at its slot, or at once if the last answer came late),
 * or flooding (each sent as soon as the last is answered) when rate is null.
 */
async function attack(base, kase, { target = base, rate = null } = {}) {
  const times = [];
  const ids = [];
  const statuses = new Set();
  answerBytes = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  const running = ordinary(base);
  for (let i = 0; performance.now() < end; i++) {
    if (rate !== null) {
      const slot = start + (i * 1000) / rate;
      if (slot >= end) break;
      if (slot > performance.now()) await new Promise((r) => setTimeout(r, slot - performance.now()));
    }
    probeId = ++probes;
    ids.push(probeId);
    const t = performance.now();
    statuses.add(await kase.run(target));
    times.push(performance.now() - t);
  }
  const ordinaryTimes = await running;
  const lastId = probes;
  probeId = 0;
  // The server reports a request once its response is finished; the last report may trail the
  // client's read by a moment.
  for (let i = 0; i < 20 && !cpuById.has(lastId) && cpuById.size > 0; i++) await new Promise((r) => setTimeout(r, 50));
  const reports = ids.filter((id) => cpuById.has(id)).map((id) => cpuById.get(id));
  return {
    times,
    cpu: reports.map((r) => r.cpuMs),
    loop: reports.map((r) => r.loopMs),
    statuses: [...statuses],
    ordinaryTimes,
    answerBytes: percentile(answerBytes, 50),
  };
}

/** The same requests at the same pace against the sink, answered with as many bytes: the ordinary client's p99 then. */
async function benign(base, kase, bytes, rate) {
  await new Promise((resolve) => {
    sink.child.once('message', resolve);
    sink.child.send({ bytes });
  });
  return percentile((await attack(base, kase, { target: sink.url, rate })).ordinaryTimes, 99);
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
      if (!serversOf(kase).includes(label) || (only && !kase.name.includes(only))) continue;
      // The quiet p99 again just before each case: on a shared machine the load moves within a run.
      const caseQuiet = percentile(await ordinary(server.url), 99);
      const rate = paceOf(kase);
      if (kase.setup) await kase.setup(server.url);
      const target = await attack(server.url, kase, { rate });
      // Keyed cases are flooded too: the stress figure beside the target.
      const flood = rate === null ? null : await attack(server.url, kase);
      kase.teardown?.();
      const underAttack = percentile(target.ordinaryTimes, 99);
      // A sink answering as many bytes would hold them in memory: past 64 MiB, no benign figure.
      const benignP99 =
        target.answerBytes > 64 * 1024 * 1024 ? null : await benign(server.url, kase, target.answerBytes, rate);
      const cpu = [...target.cpu, ...(flood?.cpu ?? [])];
      const loop = [...target.loop, ...(flood?.loop ?? [])];
      const floodP99 = flood ? percentile(flood.ordinaryTimes, 99) : null;
      rows.push({
        case: kase.name,
        answered: [...new Set([...target.statuses, ...(flood?.statuses ?? [])])].join(' '),
        model: rate === null ? 'flood' : `${rate}/s`,
        n: target.times.length,
        'cpu median ms': cpu.length ? round(percentile(cpu, 50)) : null,
        'cpu max ms': cpu.length ? round(Math.max(...cpu)) : null,
        'main thread median ms': loop.length ? round(percentile(loop, 50)) : null,
        'wall max ms': round(Math.max(...target.times, ...(flood?.times ?? []))),
        'quiet p99 ms': round(caseQuiet),
        'ordinary p99 ms': round(underAttack),
        'x quiet': round(underAttack / caseQuiet),
        'benign p99 ms': benignP99 === null ? null : round(benignP99),
        'x benign': benignP99 === null ? null : round(underAttack / benignP99),
        'flood p99 ms': floodP99 === null ? null : round(floodP99),
        'x quiet, flood': floodP99 === null ? null : round(floodP99 / caseQuiet),
      });
    }
    const rssAfter = rssMb(server.pid);
    return { rows, rssBefore, rssAfter, quiet };
  } finally {
    await server.stop();
  }
}

const sandboxArgs = [
  join(root, 'packages/sandbox/dist/cli.js'),
  '--port',
  '0',
  '--no-rate-limit',
  '--enable-webhook-trigger',
  ...(existsSync(docsDir) ? ['--docs', docsDir] : []),
];
const mockArgs = [join(root, 'apps/mock/dist/cli.js'), '--port', '0'];
// A long time limit: the 1 GiB case measures the relay, not the limit (30 s by default, which a loaded machine reaches).
const proxyArgs = (upstream) => [
  join(root, 'packages/contract/dist/cli.js'),
  'proxy',
  '--upstream',
  upstream,
  '--port',
  '0',
  '--timeout',
  '300000',
  '--quiet',
];
const wanted = (label) => corpus.some((kase) => serversOf(kase).includes(label) && (!only || kase.name.includes(only)));
const results = {
  date: new Date().toISOString(),
  node: process.version,
  seconds,
  loadAverage: loadavg().map(round),
  servers: {},
};
console.log(`load average at the start: ${results.loadAverage.join(' ')} (${availableParallelism()} cores)`);
console.log(
  `model: how the attacker sends a case's requests, one at a time. ${limits.readRequestsPerSecond}/s or ${limits.writeRequestsPerSecond}/s: a case with a valid API key, paced at that key's documented budget for its class (reads, writes); flood: no valid key (nothing to hold it to a budget), each request sent as soon as the last is answered.`,
);
console.log(
  "x quiet: ordinary p99 under the attack at that model / its quiet p99 (the target, <= 2); benign p99: the same requests at the same model against a bare sink (the machine's share); x benign: the server's own share; x quiet, flood: keyed cases flooded instead (a stress figure, not the target); cpu: server CPU per hostile request over both phases (every thread); main thread: how long the server's event loop was busy over the request (ordinary requests served meanwhile count too).",
);
let validation = [];
if (!only || 'validation'.includes(only)) {
  console.log(
    `\n== validation of untrusted JSON, against JSON.parse of the same bytes (target: at most ${VALIDATION_TARGET}x) ==`,
  );
  validation = await validationCost(root);
  console.table(validation);
}
results.validation = validation;
const sink = await start(['-e', SINK], { hook: false });
const upstream = await start(['-e', HOSTILE_UPSTREAM], {
  hook: false,
  env: { VALIDATION_COST_MODULE: pathToFileURL(join(root, 'scripts/validation-cost.mjs')).href },
});
for (const [label, args] of [
  ['sandbox', sandboxArgs],
  ['mock', mockArgs],
  ['proxy', proxyArgs(upstream.url)],
]) {
  if (!wanted(label)) continue;
  console.log(`\n== hostile corpus against the ${label} ==`);
  const run = await benchServer(label, args);
  console.table(run.rows);
  console.log(`load average now: ${loadavg().map(round).join(' ')}`);
  console.log(
    `${label} RSS: ${run.rssBefore} MB before the corpus, ${run.rssAfter} MB after (${run.rssAfter - run.rssBefore >= 0 ? '+' : ''}${run.rssAfter - run.rssBefore} MB)`,
  );
  results.servers[label] = run;
}
await sink.stop();
await upstream.stop();

// The shape the root harness reads: one row per figure, each beside its peer.
const validationFigures = validation.map((r) => ({
  name: `validation: ${r.case}`,
  value: r['validation ms'],
  unit: 'ms',
  peer: `JSON.parse of the same bytes (target: at most ${VALIDATION_TARGET}x)`,
  peerValue: r['JSON.parse ms'],
  ratio: r.ratio,
}));
results.figures = validationFigures.concat(
  Object.entries(results.servers).flatMap(([label, run]) => [
    // Server CPU time where the server reports it; wall time at the client for malformed HTTP.
    ...run.rows.map((r) => {
      const [what, value] =
        r['cpu max ms'] === null
          ? ['slowest hostile request, wall', r['wall max ms']]
          : ['slowest hostile request, server CPU', r['cpu max ms']];
      return {
        name: `${label} hostile: ${r.case}, ${what}`,
        value,
        unit: 'ms',
        peer: 'target',
        peerValue: 50,
        ratio: round(value / 50),
      };
    }),
    ...run.rows.map((r) => ({
      name: `${label} hostile: ${r.case}, ordinary p99 under it (${r.model})`,
      value: r['ordinary p99 ms'],
      unit: 'ms',
      peer: 'quiet p99',
      peerValue: r['quiet p99 ms'],
      ratio: r['x quiet'],
    })),
    ...run.rows.map((r) => ({
      name: `${label} hostile: ${r.case}, ordinary p99 under it (${r.model})`,
      value: r['ordinary p99 ms'],
      unit: 'ms',
      peer: `under the same bytes at a bare sink (${r.model})`,
      peerValue: r['benign p99 ms'],
      ratio: r['x benign'],
    })),
    ...run.rows
      .filter((r) => r['flood p99 ms'] !== null)
      .map((r) => ({
        name: `${label} hostile: ${r.case}, ordinary p99 under it flooded (stress, not the target)`,
        value: r['flood p99 ms'],
        unit: 'ms',
        peer: 'quiet p99',
        peerValue: r['quiet p99 ms'],
        ratio: r['x quiet, flood'],
      })),
    {
      name: `${label} hostile: RSS after the corpus`,
      value: run.rssAfter,
      unit: 'MB',
      peer: 'RSS before',
      peerValue: run.rssBefore,
      ratio: round(run.rssAfter / run.rssBefore),
    },
  ]),
);
mkdirSync(join(root, 'bench'), { recursive: true });
const out = join(root, 'bench', 'hostile.json');
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`wrote ${out}`);
