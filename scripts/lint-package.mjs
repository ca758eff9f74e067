#!/usr/bin/env node
// The published-package half of a package's `lint`: packs the package once (`pnpm pack`, as
// publishing does: workspace:* rewritten to versions) and runs `publint --strict` and
// `attw --profile esm-only` on that one tarball. Run alone, each tool would pack the package
// again (publint through pnpm, attw through npm, whose start alone costs about 3 s of CPU).
//
//   node ../../scripts/lint-package.mjs      (from a package folder, as its `lint` script does)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const work = mkdtempSync(join(tmpdir(), 'svc-lint-package-'));

/** Runs a command, the package's own bins first (as in a pnpm script, and also when run alone). */
function run(command, args, stdout = 'inherit') {
  const path = [join(process.cwd(), 'node_modules', '.bin'), process.env.PATH].join(delimiter);
  const result = spawnSync(command, args, {
    stdio: ['ignore', stdout, 'inherit'],
    env: { ...process.env, PATH: path },
  });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exitCode = result.status ?? 1;
  return result.status === 0;
}

try {
  if (run('pnpm', ['pack', '--pack-destination', work], 'ignore')) {
    const tarball = join(
      work,
      readdirSync(work).find((name) => name.endsWith('.tgz')),
    );
    // Both run even when the first fails, so one lint run names every problem.
    run('publint', ['run', tarball, '--strict']);
    run('attw', [tarball, '--profile', 'esm-only']);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
