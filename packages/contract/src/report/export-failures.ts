// --export-failures <dir>: one POSIX sh script per failure whose expected answer a shell can judge
// (a status, with its error code), which sends the failing request again with curl and exits 0 on
// the documented answer, 1 on another (the old one), 2 when it cannot send (no curl, a key's
// variable unset, no answer). Keys stay placeholders filled from the environment (`${SVC_API_KEY}`,
// a config key's variable, SVC_KEY_<NAME> for a key read from none); the server is the run's unless
// SVC_BASE_URL names another. Every text written passes the run's redactor, as every report does.
// A failure a shell cannot judge (a body against its schema; a state, or an answer to a request of
// a rule that changes data, whose rule replay runs again) is listed in failures.txt with the
// reason, for `svc-contract replay`.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '../redact.js';
import { redactValues } from '../redact-forms.js';
import { pathOf, sentTexts, variablesIn, withKeyVariables } from '../replay/sent.js';
import type { Spec } from '../spec.js';
import type { FailedExpectation } from '../types.js';
import { quoted, singleQuoted } from './curl.js';
import type { Failure, Report, SentRequest } from './shape.js';
import { escapeControls } from './terminal-safe.js';

/** The per-exchange checks whose verdict is the answer's status and code alone: a shell can judge them. */
const STATUS_CHECKS = new Set(['response.status-documented', 'response.error-code', 'response.no-5xx']);
const CODE = /^[A-Za-z0-9_]{1,100}$/;

/** The answers a shell can accept for a failure, or why it cannot judge it. */
export function scriptExpectation(
  spec: Spec,
  failure: Failure,
  runBaseUrl: string,
): FailedExpectation | { why: string } {
  const expected = failure.expected;
  if (expected?.judge === 'state')
    return {
      why: 'its rule judged a state (more than one answer, or what the server holds): `svc-contract replay` runs the rule again',
    };
  if (expected?.judge === 'exchange' && failure.madeBy?.writes === true)
    return {
      why: `its request was one of the sequence of ${failure.madeBy.check}, which changes data (its answer may hang on what that built): \`svc-contract replay\` runs the rule again`,
    };
  if (!failure.request) return { why: 'the failure points at no request' };
  if (!pathOf(failure.request.url, runBaseUrl).startsWith('/'))
    return { why: "the request went elsewhere than the run's server" };
  if (expected?.judge === 'answer' && (expected.success || (expected.answers ?? []).length > 0)) return expected;
  if (expected?.judge !== 'exchange' || !STATUS_CHECKS.has(failure.check))
    return { why: 'judged on more than the status and error code: `svc-contract replay` judges it with its check' };
  const op = spec.contract.operationsById.get(failure.operationId);
  if (!op || op.statuses.some((s) => !/^\d{3}$/.test(s)))
    return { why: 'its operation documents no list of exact statuses a shell could compare' };
  const statuses = op.statuses.map(Number).filter((s) => failure.check !== 'response.no-5xx' || s < 500);
  const codesOf = (s: number) => (failure.check === 'response.error-code' ? [...(op.codesByStatus.get(s) ?? [])] : []);
  return {
    judge: 'exchange',
    answers: statuses.map((status) => (codesOf(status).length ? { status, codes: codesOf(status) } : { status })),
  };
}

/** A name every file system takes: the failure's place, its check and its operation, nothing a server sent. */
export function scriptName(index: number, failure: Pick<Failure, 'check' | 'operationId'>): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80);
  return `${String(index + 1).padStart(3, '0')}-${safe(failure.check)}-${safe(failure.operationId)}.sh`;
}

/** The `case` patterns of the accepted answers, matched against "$status $code". */
function casePatterns(expected: FailedExpectation): string {
  if (expected.success) return `2??' '*`;
  return (expected.answers ?? [])
    .flatMap((a) => {
      const codes = (a.codes ?? []).filter((c) => CODE.test(c));
      return codes.length ? codes.map((c) => `'${a.status} ${c}'`) : [`'${a.status} '*`];
    })
    .join(' | ');
}

function describe(expected: FailedExpectation): string {
  if (expected.success) return 'a 2xx';
  return (expected.answers ?? [])
    .map((a) => `${a.status}${a.codes?.length ? ` ${a.codes.join(' or ')}` : ''}`)
    .join(', or ');
}

/** One line of a comment: no newline or control character of what a server sent. */
const commentLine = (text: string) => escapeControls(text.replace(/[\r\n]+/g, ' ')).slice(0, 300);

function keyGuards(request: SentRequest): string[] {
  return [...new Set(sentTexts(request).flatMap(variablesIn))].flatMap((v) => [
    `if [ -z "\${${v}:-}" ]; then`,
    `  echo ${singleQuoted(`set ${v} to the API key ${request.key ? `named ${request.key.name}${request.key.kind ? ` (kind ${request.key.kind})` : ''}` : 'the request used'}`)} >&2`,
    '  exit 2',
    'fi',
  ]);
}

function curlLine(request: SentRequest, path: string): string {
  const parts = ['curl -sS -o "$body_file" -w', `'%{http_code}'`];
  parts.push(request.method === 'HEAD' ? '--head' : `-X ${singleQuoted(request.method)}`);
  parts.push(`"$base_url"${quoted(withKeyVariables(path))}`);
  for (const [name, value] of Object.entries(request.headers))
    parts.push(`-H ${quoted(withKeyVariables(`${name}: ${value}`))}`);
  if (request.body !== undefined) parts.push(`--data-raw ${quoted(withKeyVariables(request.body))}`);
  return parts.join(' ');
}

function script(
  failure: Failure,
  request: SentRequest,
  expected: FailedExpectation,
  { runBaseUrl, changesData }: { runBaseUrl: string; changesData: boolean },
): string {
  const path = pathOf(request.url, runBaseUrl);
  return [
    '#!/bin/sh',
    '# Written by svc-contract --export-failures: one failure of a contract run, its request sent again.',
    `# Check:     ${commentLine(failure.check)}`,
    `# Operation: ${commentLine(failure.operationId)}`,
    `# Failure:   ${commentLine(failure.message)}`,
    `# Expected:  ${commentLine(describe(expected))}`,
    '# Exit status: 0 the documented answer, 1 another (the old one), 2 not sent (no curl, a key unset, no answer).',
    "# Keys are read from the environment, never from this file; SVC_BASE_URL names another server than the run's.",
    ...(changesData ? [`# This ${request.method} may change data on the server it is sent to.`] : []),
    'set -u',
    'if ! command -v curl >/dev/null 2>&1; then',
    "  echo 'curl is not installed: this script sends its request with curl' >&2",
    '  exit 2',
    'fi',
    ...keyGuards(request),
    'base_url=${SVC_BASE_URL:-}',
    `[ -n "$base_url" ] || base_url=${singleQuoted(runBaseUrl.replace(/\/+$/, ''))}`,
    'base_url=${base_url%/}',
    'body_file=$(mktemp 2>/dev/null) || body_file="${TMPDIR:-/tmp}/svc-contract-$$"',
    `trap 'rm -f "$body_file"' EXIT`,
    `status=$(${curlLine(request, path)}) || { echo "no answer from $base_url" >&2; exit 2; }`,
    `code=$(grep -o '"code"[[:space:]]*:[[:space:]]*"[A-Za-z0-9_]*"' "$body_file" | head -n 1 | sed 's/.*"\\([A-Za-z0-9_]*\\)"$/\\1/')`,
    'echo "got:      $status${code:+ $code}"',
    `echo ${singleQuoted(`expected: ${describe(expected)}`)}`,
    'case "$status $code" in',
    `  ${casePatterns(expected)}) exit 0 ;;`,
    'esac',
    'head -n 20 "$body_file" | cut -c 1-2000',
    'exit 1',
    '',
  ].join('\n');
}

/** Writes the scripts and failures.txt into `dir`; returns the scripts' paths. */
export function exportFailures(spec: Spec, report: Report, dir: string, redact: Redactor): string[] {
  mkdirSync(dir, { recursive: true });
  const failures = redactValues(report.failures, redact);
  const runBaseUrl = redact(report.target.baseUrl);
  const written: string[] = [];
  const index: string[] = [];
  failures.forEach((failure, i) => {
    const expected = scriptExpectation(spec, failure, runBaseUrl);
    const where = `${failure.check} on ${failure.operationId}`;
    if ('why' in expected || !failure.request) {
      index.push(`not exported: ${where}: ${'why' in expected ? expected.why : 'no request'}`);
      return;
    }
    const name = scriptName(i, failure);
    const path = join(dir, name);
    const changesData = spec.changesData(failure.request.method, pathOf(failure.request.url, runBaseUrl));
    writeFileSync(path, redact(script(failure, failure.request, expected, { runBaseUrl, changesData })));
    chmodSync(path, 0o755);
    written.push(path);
    index.push(`${name}: ${where}`);
  });
  writeFileSync(join(dir, 'failures.txt'), redact(`${index.map(commentLine).join('\n')}\n`));
  return written;
}
