#!/usr/bin/env node
// Records in each published package's package.json the version of the contract it is built from:
//   "svc": { "specVersion": "<info.version of spec/dist/openapi.json>" }
// The version comes from the bundle (spec/dist/openapi.json), or, when the bundle has not been
// built, from the source (spec/openapi.yaml, read with spec's own `yaml` dependency). Published =
// every package under spec/, packages/ and apps/ that is not private.
//
//   node scripts/sync-spec-version.mjs           writes the field where it is missing or different
//   node scripts/sync-spec-version.mjs --check   changes nothing; exits 1, naming each package
//                                                whose field is missing or out of date
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { publishedPackages, root } from './published-packages.mjs';

const { values } = parseArgs({ options: { check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
if (values.help) {
  process.stdout.write('Usage: node scripts/sync-spec-version.mjs [--check]\n');
  process.exit(0);
}

/** info.version of the YAML source (the root document holds `info` inline). */
function sourceVersion() {
  const source = join(root, 'spec', 'openapi.yaml');
  const { parse } = createRequire(join(root, 'spec', 'package.json'))('yaml');
  return parse(readFileSync(source, 'utf8'))?.info?.version;
}

function specVersion() {
  const bundle = join(root, 'spec', 'dist', 'openapi.json');
  if (existsSync(bundle)) {
    const version = JSON.parse(readFileSync(bundle, 'utf8'))?.info?.version;
    if (typeof version !== 'string' || version === '') throw new Error('spec/dist/openapi.json has no info.version');
    let fromSource;
    try {
      fromSource = sourceVersion();
    } catch {
      // No yaml package (not installed yet): the bundle alone decides.
    }
    if (fromSource !== undefined && fromSource !== version) {
      process.stderr.write(
        `sync-spec-version: warning: spec/openapi.yaml says ${fromSource} but the bundle says ${version}; run \`pnpm build\` to rebundle\n`,
      );
    }
    return { version, from: 'spec/dist/openapi.json' };
  }
  const version = sourceVersion();
  if (typeof version !== 'string' || version === '') throw new Error('spec/openapi.yaml has no info.version');
  return { version, from: 'spec/openapi.yaml (no bundle)' };
}

/** The manifest with `svc.specVersion` set: an existing `svc` object keeps its place and other
 * keys; a new one goes after `engines` (or at the end). */
function withSpecVersion(manifest, version) {
  if (manifest.svc && typeof manifest.svc === 'object')
    return { ...manifest, svc: { ...manifest.svc, specVersion: version } };
  const entries = Object.entries(manifest).filter(([key]) => key !== 'svc');
  const after = entries.findIndex(([key]) => key === 'engines');
  entries.splice(after === -1 ? entries.length : after + 1, 0, ['svc', { specVersion: version }]);
  return Object.fromEntries(entries);
}

const { version, from } = specVersion();
const packages = publishedPackages();
const stale = packages.filter(({ manifest }) => manifest.svc?.specVersion !== version);

if (values.check) {
  if (stale.length > 0) {
    process.stderr.write(`sync-spec-version: the spec is ${version} (${from}); out of date:\n`);
    for (const { dir, manifest } of stale) {
      const has = manifest.svc?.specVersion;
      process.stderr.write(
        `  ${manifest.name} (${dir}/package.json): ${has === undefined ? 'no svc.specVersion' : `svc.specVersion is ${has}`}\n`,
      );
    }
    process.stderr.write('Run `pnpm sync:spec-version` and commit the result.\n');
    process.exit(1);
  }
  process.stdout.write(`sync-spec-version: ${packages.length} published packages record spec ${version}\n`);
} else {
  for (const { dir, path, text, manifest } of stale) {
    const indent = /^[ \t]+/m.exec(text)?.[0] ?? '  ';
    writeFileSync(path, `${JSON.stringify(withSpecVersion(manifest, version), null, indent)}\n`);
    process.stdout.write(`sync-spec-version: ${manifest.name} (${dir}/package.json) -> ${version}\n`);
  }
  process.stdout.write(
    `sync-spec-version: ${packages.length} published packages record spec ${version} (from ${from}); ${stale.length} updated\n`,
  );
}
