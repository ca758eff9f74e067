// The run's exchanges as HAR 1.2 (`--reporter har`, report.har): what browser devtools and HAR
// viewers open. Each entry is an exchange as the recorder summarised it: already redacted (the run's
// key as its `${SVC_API_KEY}` placeholder, config keys as theirs), a response body as the report keeps
// it (its first 4 000 characters, said in the entry's comment when cut). A transport failure (no
// answer) is an entry with status 0 and the failure as its comment, as browsers record one.
import { STATUS_CODES } from 'node:http';
import type { ExchangeSummary } from '../types.js';

interface NameValue {
  name: string;
  value: string;
}

const pairs = (record: Readonly<Record<string, string>> | undefined): NameValue[] =>
  Object.entries(record ?? {}).map(([name, value]) => ({ name, value }));

function queryOf(url: string): NameValue[] {
  if (!URL.canParse(url)) return [];
  return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
}

function headerValue(headers: Readonly<Record<string, string>> | undefined, name: string): string | undefined {
  const found = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name);
  return found?.[1];
}

function requestOf(x: ExchangeSummary) {
  return {
    method: x.method,
    url: x.url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: pairs(x.headers),
    queryString: queryOf(x.url),
    headersSize: -1,
    bodySize: x.body === undefined ? 0 : Buffer.byteLength(x.body),
    ...(x.body === undefined
      ? {}
      : { postData: { mimeType: headerValue(x.headers, 'content-type') ?? '', text: x.body, params: [] } }),
  };
}

function responseOf(x: ExchangeSummary) {
  const status = x.status ?? 0;
  const text = x.responseBody ?? '';
  return {
    status,
    statusText: STATUS_CODES[status] ?? '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: pairs(x.responseHeaders),
    content: { size: Buffer.byteLength(text), mimeType: headerValue(x.responseHeaders, 'content-type') ?? '', text },
    redirectURL: headerValue(x.responseHeaders, 'location') ?? '',
    headersSize: -1,
    bodySize: -1,
  };
}

function commentOf(x: ExchangeSummary): string {
  return [
    x.operationId ?? 'no operation',
    x.requestId ? `request id ${x.requestId}` : '',
    x.error ? `no answer: ${x.error}` : '',
    x.responseBody !== undefined && /… \(\d+ characters\)$/.test(x.responseBody)
      ? 'response body cut to its first 4000 characters'
      : '',
  ]
    .filter(Boolean)
    .join('; ');
}

export function renderHar(
  exchanges: readonly ExchangeSummary[],
  creator: { name: string; version: string },
  fallbackStart: string,
): string {
  const entries = exchanges.map((x) => ({
    startedDateTime: x.startedAt ?? fallbackStart,
    time: x.durationMs,
    request: requestOf(x),
    response: responseOf(x),
    cache: {},
    timings: { send: 0, wait: x.durationMs, receive: 0 },
    comment: commentOf(x),
  }));
  return `${JSON.stringify({ log: { version: '1.2', creator, entries } }, null, 2)}\n`;
}
