// The validators and linters of the matrix, each with its defaults only: what a new user of the
// tool would get on our bundle. Each returns { errors, warnings } as lists of { rule, message }.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';

const { Spectral, Document } = spectralCore;

export async function swaggerParser(doc) {
  try {
    await SwaggerParser.validate(structuredClone(doc));
    return { errors: [], warnings: [] };
  } catch (error) {
    const details = error.details?.length ? error.details : [error];
    return {
      errors: details.map((d) => ({ rule: 'validate', message: `${d.instancePath ?? ''} ${d.message}`.trim() })),
      warnings: [],
    };
  }
}

export async function seriousme(doc, expectedVersion) {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  const errors = (result.valid ? [] : [result.errors].flat()).map((e) => ({
    rule: e.keyword ?? 'schema',
    message: `${e.instancePath ?? ''} ${e.message ?? JSON.stringify(e)}`.trim(),
  }));
  if (validator.version !== expectedVersion) {
    errors.push({ rule: 'version', message: `validated as ${validator.version}, expected ${expectedVersion}` });
  }
  return { errors, warnings: [] };
}

// spectral:oas exactly as the CLI's default extends it, on the bundle's own JSON text.
export async function spectralOas(text, source) {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[oas, 'recommended']] });
  const results = await spectral.run(new Document(text, spectralParsers.Json, source));
  const pick = (severity) =>
    results
      .filter((r) => r.severity === severity)
      .map((r) => ({ rule: r.code, message: `${r.path.join('.')}: ${r.message}` }));
  return { errors: pick(0), warnings: pick(1) };
}

// Redocly's CLI is one bundled file without an importable API, so it runs as a child process in an
// empty folder (no redocly.yaml to pick up) with only the recommended ruleset.
export async function redoclyRecommended(bundlePath, redoclyBin) {
  const cwd = mkdtempSync(join(tmpdir(), 'svc-redocly-'));
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [redoclyBin, 'lint', bundlePath, '--extends', 'recommended', '--format', 'json', '--max-problems', '10000'],
      {
        cwd,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((error) => ({ stdout: error.stdout ?? '', stderr: error.stderr }));
    const start = stdout.indexOf('{');
    if (start < 0)
      return { errors: [{ rule: 'run', message: `no JSON report: ${stdout.slice(0, 300)}` }], warnings: [] };
    const { problems } = JSON.parse(stdout.slice(start));
    const pick = (severity) =>
      problems
        .filter((p) => p.severity === severity)
        .map((p) => ({ rule: p.ruleId, message: `${p.location?.[0]?.pointer ?? ''}: ${p.message}` }));
    return { errors: pick('error'), warnings: pick('warn') };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
