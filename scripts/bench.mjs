// `pnpm bench`: every benchmark of the workspace in one run and one table. Each package's own
// `bench` script measures a figure beside its peer (sandbox vs bare node:http, mock vs plain
// Prism, client vs raw fetch, contract suite) and writes `figures` into its bench/results.json
// (and bench/size.json for the client's size); this harness adds cold and warm `turbo build`,
// then the adversarial benchmark (scripts/hostile-bench.mjs: hostile requests against sandbox and
// mock beside an ordinary client, into bench/hostile.json) and the install size of @svc/contract
// alone beside every published package together (scripts/install-size.mjs, into
// bench/install-size.json), prints every figure with its peer and ratio, and writes the table to
// bench/results.json.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (args, options = {}) => execFileSync('pnpm', args, { cwd: root, stdio: 'inherit', ...options });

function timed(args) {
  const start = process.hrtime.bigint();
  run(args, { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** Workspace folders (spec, packages/*, apps/*) whose package.json has a `bench` script. */
function benchPackages() {
  const dirs = [
    'spec',
    ...['packages', 'apps'].flatMap((group) => readdirSync(join(root, group)).map((d) => join(group, d))),
  ];
  return dirs
    .map((dir) => ({ dir, manifest: join(root, dir, 'package.json') }))
    .filter(({ manifest }) => existsSync(manifest))
    .map(({ dir, manifest }) => ({ dir, ...JSON.parse(readFileSync(manifest, 'utf8')) }))
    .filter((pkg) => pkg.scripts?.bench);
}

const figures = [];

console.log('\n== cold and warm build (turbo) ==');
const cold = timed(['exec', 'turbo', 'run', 'build', '--force', '--output-logs=none']);
const warm = timed(['exec', 'turbo', 'run', 'build', '--output-logs=none']);
figures.push({
  source: 'turbo',
  name: 'pnpm build, cold (--force)',
  value: Number(cold.toFixed(2)),
  unit: 's',
  peer: 'warm (cached) pnpm build',
  peerValue: Number(warm.toFixed(2)),
  ratio: Number((cold / warm).toFixed(1)),
});

for (const pkg of benchPackages()) {
  console.log(`\n== ${pkg.name} ==`);
  run(['--filter', pkg.name, 'bench']);
  for (const file of ['results.json', 'size.json']) {
    const path = join(root, pkg.dir, 'bench', file);
    if (!existsSync(path)) continue;
    for (const figure of JSON.parse(readFileSync(path, 'utf8')).figures ?? [])
      figures.push({ source: pkg.name, ...figure });
  }
}

console.log('\n== hostile input (scripts/hostile-bench.mjs) ==');
execFileSync(process.execPath, [join(root, 'scripts', 'hostile-bench.mjs')], { cwd: root, stdio: 'inherit' });
for (const figure of JSON.parse(readFileSync(join(root, 'bench', 'hostile.json'), 'utf8')).figures ?? [])
  figures.push({ source: 'hostile', ...figure });

console.log('\n== install size (scripts/install-size.mjs) ==');
execFileSync(process.execPath, [join(root, 'scripts', 'install-size.mjs')], { cwd: root, stdio: 'inherit' });
for (const figure of JSON.parse(readFileSync(join(root, 'bench', 'install-size.json'), 'utf8')).figures ?? [])
  figures.push({ source: 'install size', ...figure });

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
const cell = (value, unit) =>
  value === null || value === undefined ? '–' : `${value.toLocaleString('en-US')} ${unit}`;
const table = [
  '| figure | value | peer | peer value | ratio |',
  '|---|---|---|---|---|',
  ...figures.map(
    (f) => `| ${f.name} | ${cell(f.value, f.unit)} | ${f.peer} | ${cell(f.peerValue, f.unit)} | ${f.ratio ?? '–'} |`,
  ),
].join('\n');
console.log(`\n${table}\n\nMachine: ${machine}`);

mkdirSync(join(root, 'bench'), { recursive: true });
writeFileSync(
  join(root, 'bench', 'results.json'),
  `${JSON.stringify({ date: new Date().toISOString(), machine, figures }, null, 2)}\n`,
);
console.log('wrote bench/results.json');
