// The ecosystem matrix: the fresh bundle (and its 3.0 variant) run through the OpenAPI tools
// integrators already use, each with its own defaults. Prints one line of counts per tool and fails,
// naming the tool and its first message, on any error, warning or output that does not compile
// under `tsc --strict` with the probes of ./ecosystem/probes.mjs (typed error codes, documented
// success types, short names). Findings a default rule cannot avoid without inventing a fact are listed,
// with the reason, in ../ecosystem-exceptions.yaml; an exception that no longer matches fails too.
//
//   node scripts/ecosystem-matrix.mjs [--keep]     (--keep leaves the generated code in place)
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { generators, runGenerator } from './ecosystem/generators.mjs';
import { nameFindings, probes } from './ecosystem/probes.mjs';
import { applyExceptions, firstProblem, formatRow } from './ecosystem/report.mjs';
import { typecheck } from './ecosystem/typecheck.mjs';
import { redoclyRecommended, seriousme, spectralOas, swaggerParser } from './ecosystem/validators.mjs';

const specDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundlePath = join(specDir, 'dist', 'openapi.json');
const bundle30Path = join(specDir, 'dist', 'openapi.3.0.json');
const keep = process.argv.includes('--keep');
const started = performance.now();

for (const file of [bundlePath, bundle30Path]) {
  if (!existsSync(file)) {
    console.error(`ecosystem matrix: ${file} is missing; run \`pnpm --filter @svc/openapi bundle\` first`);
    process.exit(1);
  }
}
const text = readFileSync(bundlePath, 'utf8');
const doc = JSON.parse(text);
const text30 = readFileSync(bundle30Path, 'utf8');
const doc30 = JSON.parse(text30);
const exceptions = parse(readFileSync(join(specDir, 'ecosystem-exceptions.yaml'), 'utf8'))?.exceptions ?? [];

// Generated code lives under spec/node_modules so that its imports (zod, @zodios/core, axios)
// resolve to this package's pinned devDependencies; it is removed afterwards unless --keep.
const cacheDir = join(specDir, 'node_modules', '.cache');
mkdirSync(cacheDir, { recursive: true });
const outDir = mkdtempSync(join(cacheDir, 'ecosystem-'));

const rows = [];
const redocly = redoclyRecommended(bundlePath, join(specDir, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'));
try {
  rows.push({ tool: 'swagger-parser validate (3.1)', ...(await swaggerParser(doc)) });
  rows.push({ tool: 'seriousme validator (3.1)', ...(await seriousme(doc, '3.1')) });
  rows.push({ tool: 'spectral:oas (3.1)', ...(await spectralOas(text, bundlePath)) });
  rows.push({ tool: 'swagger-parser validate (3.0)', ...(await swaggerParser(doc30)) });
  rows.push({ tool: 'seriousme validator (3.0)', ...(await seriousme(doc30, '3.0')) });
  rows.push({ tool: 'spectral:oas (3.0)', ...(await spectralOas(text30, bundle30Path)) });

  const generated = [];
  for (const generator of generators) {
    const out = join(outDir, generator.folder);
    const result = await runGenerator(generator, { doc, bundlePath, out });
    generated.push({ generator, result });
  }
  for (const [folder, source] of Object.entries(probes)) writeFileSync(join(outDir, folder, 'probe.ts'), source);
  rows.push({ tool: 'redocly lint, recommended (3.1)', ...(await redocly) });

  const { byFolder } = typecheck(outDir);
  for (const { generator, result } of generated) {
    const compile = (byFolder.get(generator.folder) ?? []).map((message) => ({ rule: 'tsc --strict', message }));
    const names = nameFindings(join(outDir, generator.folder));
    rows.push({ tool: generator.name, errors: [...result.errors, ...compile, ...names], warnings: result.warnings });
  }
  for (const [folder, messages] of byFolder) {
    if (!generators.some((g) => g.folder === folder))
      rows.push({
        tool: `tsc (${folder})`,
        errors: messages.map((message) => ({ rule: 'tsc', message })),
        warnings: [],
      });
  }
} finally {
  if (!keep) rmSync(outDir, { recursive: true, force: true });
}

const { rows: judged, unused } = applyExceptions(rows, exceptions);
console.log('ecosystem matrix: tool, errors, warnings, excepted (see ecosystem-exceptions.yaml)');
for (const row of judged) console.log(formatRow(row));
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const failing = judged.filter((row) => row.errors.length + row.warnings.length > 0);
for (const stale of unused)
  console.error(
    `ecosystem matrix: exception no longer needed: ${stale.rule} for ${stale.tools.join(', ')} (remove it from ecosystem-exceptions.yaml)`,
  );
if (failing.length || unused.length) {
  for (const row of failing) console.error(`ecosystem matrix: ${row.tool} fails: ${firstProblem(row)}`);
  console.error(
    `ecosystem matrix: FAILED (${failing.length} tool(s)) in ${seconds} s${keep ? `; output kept in ${outDir}` : ''}`,
  );
  process.exit(1);
}
console.log(
  `ecosystem matrix: ${judged.length} checks passed in ${seconds} s${keep ? `; output kept in ${outDir}` : ''}`,
);
