// `svc-sandbox logs tail [--status 4xx] [--operation <id>] [--json] [sandbox options]`: runs the
// sandbox, as `svc-sandbox` does, and writes each exchange it answers to stdout as it answers it
// (the banner goes to stderr, so stdout holds exchanges only and pipes as JSON lines).
//
// Why the command starts the sandbox rather than reading one started apart: the line is written by
// the request log's listener in the same turn as the answer, so it is out within the 100 ms the
// command promises by construction (no poll interval, no connection to lose and resume, no stream
// through a route that answers whole bodies), and it spends no key's rate limit. A sandbox started
// apart keeps the same log: any request id it gave is looked up at GET /__sandbox/requests/<id>.
import type { Contract } from '@svc/spec-runtime';
import type { LoggedExchange } from './request-log.js';

export const LOGS_USAGE = `Usage: svc-sandbox logs tail [--status <class|code>] [--operation <operationId>] [--json] [sandbox options]

Runs the sandbox (the same options as svc-sandbox: --port, --seed, --no-rate-limit, ...) and writes
each exchange it answers to stdout as it answers it: time, method, path, status, error code,
request id and the name of the key (never the key). The banner goes to stderr.

Options:
  --status <s>       Only these statuses: a class (2xx, 4xx, 5xx) or a code (404); comma-separated
  --operation <id>   Only requests routed to this operation (an operationId of the contract)
  --json             One JSON object per line instead of text
  -h, --help         Show this help

Any request id of the sandbox, tailed or not, is looked up with GET /__sandbox/requests/<request_id>.
`;

export const LOGS_OPTIONS = {
  status: { type: 'string' },
  operation: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export interface LogsFilter {
  status?: string | undefined;
  operation?: string | undefined;
}

/** Whether a status matches one of `--status`'s terms, or the usage error for a term it cannot read. */
export function statusFilter(text: string): ((status: number) => boolean) | { error: string } {
  const terms = text.split(',').map((term) => term.trim().toLowerCase());
  const tests: ((status: number) => boolean)[] = [];
  for (const term of terms) {
    const klass = /^([1-5])xx$/.exec(term);
    if (klass) tests.push((status) => Math.floor(status / 100) === Number(klass[1]));
    else if (/^[1-5][0-9][0-9]$/.test(term)) tests.push((status) => status === Number(term));
    else return { error: `--status takes a class (4xx) or a code (404), comma-separated; got ${JSON.stringify(term)}` };
  }
  return (status) => tests.some((test) => test(status));
}

/** The exchanges `logs tail` shows, or the usage error its options make. */
export function exchangeFilter(
  filter: LogsFilter,
  contract: Contract,
): ((x: LoggedExchange) => boolean) | { error: string } {
  const byStatus = filter.status === undefined ? () => true : statusFilter(filter.status);
  if (typeof byStatus !== 'function') return byStatus;
  const { operation } = filter;
  if (operation !== undefined && !contract.operations.some((candidate) => candidate.operationId === operation))
    return {
      error: `--operation takes an operationId of the contract (getThread, createThread, ...); got ${JSON.stringify(operation)}`,
    };
  return (x) => byStatus(x.response.status) && (operation === undefined || x.operation === operation);
}

/** Control characters a client sent (in a request id) shown as \xHH, so that no line rewrites the terminal. */
function terminalSafe(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/** The fields of one exchange `logs tail` shows. */
export function tailFields(x: LoggedExchange) {
  return {
    at: x.at,
    method: x.request.method,
    path: x.request.path,
    status: x.response.status,
    error_code: x.response.errorCode ?? null,
    request_id: x.requestId,
    operation: x.operation ?? null,
    key_name: x.keyName ?? null,
  };
}

export function tailLine(x: LoggedExchange, json: boolean): string {
  const fields = tailFields(x);
  if (json) return `${JSON.stringify(fields)}\n`;
  const code = fields.error_code === null ? '' : ` ${fields.error_code}`;
  const key = fields.key_name === null ? 'no key' : `key ${fields.key_name}`;
  return (
    terminalSafe(`${fields.at} ${fields.method} ${fields.path} ${fields.status}${code} ${fields.request_id} (${key})`) +
    '\n'
  );
}
