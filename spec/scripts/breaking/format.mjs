// The two outputs of the gate: a human-readable list (findings with the same rule and sentence
// grouped, each location listed) and a JSON document for machines.
import { plural } from './phrases.mjs';

/**
 * @typedef {import('./index.mjs').Report} Report
 * @typedef {{ baseline: string, current: string }} Files
 */

const RELEASE_COMMAND = 'pnpm --filter @svc/openapi baseline:update';

/** The next major version of a version string ("2.3.1" → "3.0.0"). @param {string} version */
const nextMajor = (version) => {
  const match = /^(v?)(\d+)/.exec(version.trim());
  return match ? `${match[1]}${Number(match[2]) + 1}.0.0` : 'the next major version';
};

/**
 * @param {Report} report
 * @param {Files} files as the user should read them (relative paths)
 * @returns {string}
 */
export function formatHuman(report, files) {
  const lines = [
    'Breaking-change check of the OpenAPI contract',
    `  baseline  ${files.baseline} (info.version ${report.baseline.version || '?'}, the last released contract)`,
    `  current   ${files.current} (info.version ${report.current.version || '?'})`,
    '',
  ];
  if (report.findings.length === 0) {
    lines.push('✓ No breaking change.');
    return lines.join('\n');
  }

  /** @type {Map<string, { rule: string, message: string, locations: string[] }>} */
  const groups = new Map();
  for (const { rule, location, message } of report.findings) {
    const key = `${rule}\u0000${message}`;
    const group = groups.get(key) ?? { rule, message, locations: [] };
    group.locations.push(location);
    groups.set(key, group);
  }
  const mark = report.majorBump ? 'ℹ' : '✗';
  for (const { rule, message, locations } of groups.values()) {
    lines.push(`${mark} ${rule}: ${message}`);
    for (const location of locations) lines.push(`    at ${location}`);
    lines.push('');
  }
  const count = plural(report.findings.length, 'breaking change');
  if (report.majorBump) {
    lines.push(
      `ℹ ${count}, allowed: info.version ${report.current.version} bumps the major version of ${report.baseline.version}.`,
    );
    lines.push(`  At release, record the new contract as the baseline: ${RELEASE_COMMAND}`);
  } else {
    lines.push(`✗ ${count} against the last released contract (${report.baseline.version}).`);
    lines.push(
      `  Make the change additive, or, if the break is intended, bump info.version to ${nextMajor(report.baseline.version)} (spec/openapi.yaml).`,
    );
  }
  return lines.join('\n');
}

/**
 * @param {Report} report
 * @param {Files} files
 * @returns {string}
 */
export function formatJson(report, files) {
  return JSON.stringify(
    {
      baseline: { file: files.baseline, version: report.baseline.version },
      current: { file: files.current, version: report.current.version },
      majorBump: report.majorBump,
      breaking: report.breaking,
      findings: report.findings,
    },
    null,
    2,
  );
}
