#!/usr/bin/env node
// Where the time of a turbo run went: reads a run summary (`turbo run … --summarize` writes one
// to .turbo/runs/) and prints each task's start, duration and cache status, longest first, with
// the run's wall time and the sum of task times (their ratio is how parallel the run was).
//
//   node scripts/turbo-times.mjs                 # the newest summary in .turbo/runs
//   node scripts/turbo-times.mjs path/to/run.json
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestSummary() {
  const dir = '.turbo/runs';
  const files = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : [];
  if (files.length === 0) throw new Error(`No run summary in ${dir}: run turbo with --summarize first.`);
  return files.map((name) => join(dir, name)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

const file = process.argv[2] ?? newestSummary();
const summary = JSON.parse(readFileSync(file, 'utf8'));
const runStart = summary.execution.startTime;
const seconds = (ms) => (ms / 1000).toFixed(1).padStart(6);

const tasks = summary.tasks
  .map((task) => ({
    id: task.taskId,
    start: task.execution.startTime - runStart,
    duration: task.execution.endTime - task.execution.startTime,
    cache: task.cache.status,
    exitCode: task.execution.exitCode,
  }))
  .sort((a, b) => b.duration - a.duration);

console.log(`${'task'.padEnd(34)} ${'start'.padStart(6)} ${'took'.padStart(6)}  cache`);
for (const task of tasks) {
  const failed = task.exitCode ? `  exit ${task.exitCode}` : '';
  console.log(`${task.id.padEnd(34)} ${seconds(task.start)} ${seconds(task.duration)}  ${task.cache}${failed}`);
}
const wall = summary.execution.endTime - runStart;
const total = tasks.reduce((sum, task) => sum + task.duration, 0);
console.log(
  `wall ${seconds(wall).trim()} s; task time ${seconds(total).trim()} s (${(total / wall).toFixed(1)} tasks at once on average); ${file}`,
);
