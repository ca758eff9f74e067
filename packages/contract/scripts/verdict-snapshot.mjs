#!/usr/bin/env node
// The verdict snapshot (issue 33, item 7): what the suite decides, in every report format, for a
// full run against the embedded sandbox and for each mutant and control of the package's own
// tests, normalised so that two runs of the same code give the same files. Run it before and after
// a change and compare the two folders with `diff -r`: any difference is a change of behaviour.
//
//   node scripts/verdict-snapshot.mjs <out-dir>      (in packages/contract, after pnpm build)
//
// Replaced by placeholders: timings, dates, ports, request ids, the run id (in probe data and
// idempotency keys), ids the sandbox mints for what the run creates, and temporary paths.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const given = process.argv[2];
if (!given) {
  console.error('usage: node scripts/verdict-snapshot.mjs <out-dir>');
  process.exit(2);
}
// Relative to where the command was typed (pnpm runs a package script in the package's folder).
const out = resolve(process.env.INIT_CWD ?? process.cwd(), given);

function run(command, args, env = {}) {
  const done = spawnSync(command, args, { cwd: pkg, stdio: 'inherit', env: { ...process.env, ...env } });
  if (done.error) throw done.error;
  return done.status;
}

/** The run ids (8 characters, random per run) as the probe names, keys and idempotency keys of a run carry them. */
function runIdsOf(text) {
  const named = /svc[-_ ]contract[-_ ](?:unknown_)?([A-Za-z0-9]{8})\b|\(run ([A-Za-z0-9]{8})\)/g;
  return new Set([...text.matchAll(named)].map((m) => m[1] ?? m[2]));
}

const RULES = [
  // Durations: the JSON field, JUnit's time attributes, and "n ms" / "n s" in the readable reports.
  [/"(durationMs|elapsedMs)": ?\d+(\.\d+)?/g, '"$1": <ms>'],
  [/\btime="[\d.]+"/g, 'time="<s>"'],
  [/\b\d+(\.\d+)? ?(ms|s)\b/g, '<duration>'],
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?/g, '<date>'],
  [/(127\.0\.0\.1|localhost):\d+/g, '$1:<port>'],
  [/req(\\?)_[A-Za-z0-9]{12}/g, 'req$1_<id>'],
  // What the run creates gets an id the sandbox draws at random: threads, comments, notes.
  [/\b(cth|thc|not)-[A-Za-z0-9]{8}\b/g, '$1-<id>'],
];

function normalise(text, raw) {
  let result = text.split(raw).join('<raw>').split(tmpdir()).join('<tmp>');
  for (const id of runIdsOf(text)) result = result.split(id).join('<run>');
  for (const [pattern, to] of RULES) result = result.replace(pattern, to);
  return result;
}

function* files(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

const raw = mkdtempSync(join(tmpdir(), 'verdict-snapshot-'));
try {
  // The README's contract command shape: the embedded sandbox, everything, writes allowed (rate off: the same checks, sooner).
  run(process.execPath, [
    'dist/cli.js',
    '--profile',
    'full',
    '--allow-writes',
    '--rate',
    'off',
    '--quiet',
    '--reporter',
    'json,junit,text,markdown',
    '--output',
    join(raw, 'full'),
  ]);
  const recorded = run(
    process.execPath,
    [join(pkg, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'scripts/verdict-snapshot/vitest.config.ts'],
    { VERDICT_SNAPSHOT_RAW: raw },
  );
  if (recorded !== 0) throw new Error('recording the mutants and controls failed');
  for (const path of files(raw)) {
    const target = join(out, relative(raw, path));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, normalise(readFileSync(path, 'utf8'), raw));
  }
  console.log(`verdict snapshot written to ${out}`);
} finally {
  rmSync(raw, { recursive: true, force: true });
}
