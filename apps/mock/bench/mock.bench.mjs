// Throughput of the mock next to plain `prism mock` (prism-cli's own server) on the same
// operation, in the same run, so the ratio says what the API-dialect layer costs on a valid read:
// route matching, the Authorization check, headers and the request-id rewrite, on top of Prism.
// Each server runs in its own process; autocannon drives both from this one. Plain Prism runs
// with --verboseLevel silent, as the mock's Prism does (its default info logging is what slows it
// most); the default-logging figure is measured too, for reference. Not a test: run
// `pnpm --filter @svc/mock bench` after a build. Prints a table and writes bench/results.json
// (gitignored). BENCH_DURATION (seconds, default 5) and BENCH_CONNECTIONS (default 10) tune it.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BUNDLE_PATH, prismCliPath } from '../dist/index.js';

const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const scenario = {
  name: 'GET /v2/api/threads/{id} with a valid key',
  path: '/v2/api/threads/cth-5Lm1zX7e',
  headers: { Authorization: 'Api-Key bench_key' },
};

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts `node <args>` on `port` and resolves once GET <path> answers. */
async function startProcess(args, port) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  let exited = null;
  child.once('exit', (code) => (exited = code));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (exited !== null) throw new Error(`${args.join(' ')} exited with ${exited}`);
    const response = await fetch(`${url}${scenario.path}`, { headers: scenario.headers }).catch(() => undefined);
    if (response) {
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${args.join(' ')}: ${scenario.path} answered ${response.status}`);
      return {
        url,
        stop: () =>
          new Promise((done) => {
            if (exited !== null) return done();
            child.once('exit', done);
            child.kill('SIGTERM');
          }),
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  throw new Error(`${args.join(' ')} did not start`);
}

async function load(url, seconds = duration) {
  const result = await autocannon({
    url: `${url}${scenario.path}`,
    connections,
    duration: seconds,
    headers: scenario.headers,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

async function measure(name, args, port) {
  const server = await startProcess(args, port);
  try {
    await load(server.url, 1); // warm-up: JIT, Prism's first compilations
    return { name, ...(await load(server.url)) };
  } finally {
    await server.stop();
  }
}

const prism = prismCliPath();
const runs = [];
let port = await freePort();
runs.push(await measure('svc-mock (Prism library + API dialect)', [cli, '--port', String(port)], port));
port = await freePort();
runs.push(
  await measure(
    'plain prism mock --verboseLevel silent',
    [prism, 'mock', BUNDLE_PATH, '--port', String(port), '--verboseLevel', 'silent'],
    port,
  ),
);
port = await freePort();
runs.push(
  await measure('plain prism mock (default logging)', [prism, 'mock', BUNDLE_PATH, '--port', String(port)], port),
);

const [mock, plain, plainLogging] = runs;
const results = {
  date: new Date().toISOString(),
  node: process.version,
  duration,
  connections,
  scenario: scenario.name,
  runs,
  ratio: Number((mock.requestsPerSecond / plain.requestsPerSecond).toFixed(2)),
  ratioToDefaultLogging: Number((mock.requestsPerSecond / plainLogging.requestsPerSecond).toFixed(2)),
};
// The shape the root harness (`pnpm bench`) reads: one row per figure, each beside its peer.
results.figures = [
  {
    name: `mock ${scenario.name}`,
    value: mock.requestsPerSecond,
    unit: 'req/s',
    peer: plain.name,
    peerValue: plain.requestsPerSecond,
    ratio: results.ratio,
  },
  {
    name: `mock ${scenario.name}, p99`,
    value: mock.p99Ms,
    unit: 'ms',
    peer: plain.name,
    peerValue: plain.p99Ms,
    ratio: plain.p99Ms ? Number((mock.p99Ms / plain.p99Ms).toFixed(2)) : null,
  },
];
writeFileSync(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);

const rows = runs.map(
  (r) =>
    `${r.name.padEnd(42)} ${String(r.requestsPerSecond).padStart(8)} req/s   p50 ${String(r.p50Ms).padStart(4)} ms   p99 ${String(r.p99Ms).padStart(4)} ms   errors ${r.errors}   non-2xx ${r.non2xx}`,
);
process.stdout.write(
  [
    `${scenario.name}: ${duration} s, ${connections} connections, Node ${process.version}`,
    ...rows,
    `ratio mock / plain prism (silent): ${results.ratio}   mock / plain prism (default logging): ${results.ratioToDefaultLogging}`,
    'results written to bench/results.json',
    '',
  ].join('\n'),
);
