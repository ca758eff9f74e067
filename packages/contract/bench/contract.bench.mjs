// Benchmark of the contract suite (not a test): the wall time of a full run with writes against
// the local embedded sandbox, with rate limiting off on both sides (the documented 20/5 per second
// would make the run measure the limiter, not the suite), and the checks, assertions and requests
// per second. BENCH_RUNS runs (default 3), the median reported. Then one run at the documented
// rates against a sandbox that enforces them (BENCH_RATED=0 leaves it out): its wall time against
// the floor the limits impose on its own request mix (the pacing ratio; the target is at most 1.15). The peer figure: the same number of plain
// sequential GETs to the same kind of sandbox, i.e. what the requests alone cost. Results go to
// bench/results.json (gitignored), with `figures` for the workspace's `pnpm bench` table.
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadSpec, runContract, startEmbeddedSandbox } from '../dist/index.js';

const runs = Number(process.env.BENCH_RUNS ?? 3);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function once(options) {
  const started = performance.now();
  const { report, exitCode } = await runContract({ allowWrites: true, quiet: true, print: false, ...options });
  const seconds = (performance.now() - started) / 1000;
  const checks = report.summary.checks.passed + report.summary.checks.failed + report.summary.checks.skipped;
  const assertions = report.summary.assertions.passed + report.summary.assertions.failed;
  return { exitCode, seconds, checks, assertions, requests: report.requests, report };
}

const samples = [];
for (let i = 0; i < runs; i++) {
  const sample = await once({ rate: 'off' });
  if (sample.exitCode !== 0) throw new Error(`run ${i + 1} failed: the bench measures a passing suite`);
  samples.push(sample);
  process.stdout.write(
    `run ${i + 1}/${runs}: ${sample.seconds.toFixed(2)} s, ${sample.checks} checks, ${sample.assertions} assertions, ${sample.requests} requests\n`,
  );
}
const seconds = median(samples.map((s) => s.seconds));
const typical = samples.find((s) => s.seconds === seconds);
const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  runs,
  unlimited: {
    wallSeconds: Number(seconds.toFixed(3)),
    checks: typical.checks,
    assertions: typical.assertions,
    requests: typical.requests,
    checksPerSecond: Number((typical.checks / seconds).toFixed(1)),
    assertionsPerSecond: Number((typical.assertions / seconds).toFixed(1)),
    requestsPerSecond: Number((typical.requests / seconds).toFixed(1)),
  },
};

// The peer: as many plain sequential GETs to a fresh sandbox as the suite sent.
const sandbox = await startEmbeddedSandbox({ rateLimit: false, facts: loadSpec().contract });
const plainStarted = performance.now();
for (let i = 0; i < typical.requests; i++) {
  const response = await fetch(`${sandbox.url}/v2/api/users`, {
    headers: { Authorization: `Api-Key ${sandbox.apiKey}` },
  });
  await response.text();
}
const plainSeconds = (performance.now() - plainStarted) / 1000;
await sandbox.close();
results.plainRequests = { wallSeconds: Number(plainSeconds.toFixed(3)), requests: typical.requests };

const figures = [
  {
    name: 'contract suite, full run with writes (local sandbox, rate limits off)',
    value: results.unlimited.wallSeconds,
    unit: 's',
    peer: `the same ${typical.requests} requests as plain sequential GETs`,
    peerValue: results.plainRequests.wallSeconds,
    ratio: Number((seconds / plainSeconds).toFixed(1)),
  },
  {
    name: 'contract suite, checks per second',
    value: results.unlimited.checksPerSecond,
    unit: 'checks/s',
    peer: '–',
    peerValue: null,
    ratio: null,
  },
  {
    name: 'contract suite, assertions per second',
    value: results.unlimited.assertionsPerSecond,
    unit: 'assertions/s',
    peer: '–',
    peerValue: null,
    ratio: null,
  },
];
if (process.env.BENCH_RATED !== '0') {
  const rated = await once({});
  const { pacing } = rated.report;
  results.documentedRate = {
    wallSeconds: Number(rated.seconds.toFixed(3)),
    requests: rated.requests,
    requestsPerSecond: Number((rated.requests / rated.seconds).toFixed(1)),
    pacing,
  };
  figures.push({
    name: `contract suite at the documented rates (${pacing.reads} reads, ${pacing.writes} writes; the server limiting too)`,
    value: results.documentedRate.wallSeconds,
    unit: 's',
    peer: 'the floor the limits impose on that mix',
    peerValue: pacing.floorSeconds,
    ratio: Number((rated.seconds / pacing.floorSeconds).toFixed(2)),
  });
}
results.figures = figures;
const out = fileURLToPath(new URL('./results.json', import.meta.url));
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`\n${JSON.stringify(results, null, 2)}\nwritten to ${out}\n`);
