// Generates the `x-codeSamples` of every operation (a curl command and an @svc/api-client call)
// from the operation itself: method, path with example path parameters, example query
// parameters, the first request-body example, the API key header and, on writes, an
// Idempotency-Key. Nothing is written per operation by hand, so a new operation gets its samples
// the moment it is in the contract.
import { headerNamesOf } from '@svc/spec-runtime/walk';
import {
  asJson,
  defaultServerUrl,
  exampleOf,
  firstRequestBodyExample,
  listOperations,
  type OpenApiDocument,
  type OperationEntry,
  operationLabel,
  parametersOf,
} from './openapi.js';
import { freshOnSandbox, freshParameter, freshTags } from './sandbox-fresh.js';

/** Redoc's `x-codeSamples` entry. */
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** Everything both samples need, decided once so the two can never disagree. */
export interface SampleRequest {
  method: string;
  /** The server the contract names, its variables at their defaults. */
  baseUrl: string;
  /** The path template, as the typed client takes it (`/v2/api/threads/{id}`). */
  pathTemplate: string;
  /** Base URL + path with example values, percent-encoded (a phone number's `+` is `%2B`). */
  url: string;
  pathParams: Record<string, unknown>;
  queryParams: Record<string, unknown>;
  /** Whether the operation takes an Idempotency-Key (writes): the samples send a fresh one. */
  idempotent: boolean;
  body: { value: unknown } | undefined;
}

export const CURL_LABEL = 'curl';
export const CURL_LANG = 'curl';
export const CLIENT_LABEL = '@svc/api-client';
/** Highlighted as JavaScript: the sample is also valid TypeScript, and Redoc ships no TS grammar. */
export const CLIENT_LANG = 'JavaScript';

/** Redoc's `codeSamples.languages` option: which samples the language switcher offers, in order. */
export const CODE_SAMPLE_LANGUAGES = [
  { lang: CURL_LANG, label: CURL_LABEL },
  { lang: CLIENT_LANG, label: CLIENT_LABEL },
];
/** The package the client sample imports (it also names the sample). */
export const CLIENT_PACKAGE = '@svc/api-client';
/** The environment variable both samples read the key from. */
export const API_KEY_VARIABLE = 'SVC_API_KEY';

export function sampleRequestFor(doc: OpenApiDocument, entry: OperationEntry): SampleRequest {
  const parameters = parametersOf(doc, entry);
  const pathParams: Record<string, unknown> = {};
  const queryParams: Record<string, unknown> = {};
  let idempotent = false;

  for (const parameter of parameters) {
    const example = freshParameter(parameter.name, exampleOf(doc, parameter));
    if (parameter.in === 'path') {
      if (example === undefined) {
        throw new Error(
          `${operationLabel(entry)}: path parameter ${parameter.name} has no example to put in the samples`,
        );
      }
      pathParams[parameter.name] = example;
    } else if (parameter.in === 'query') {
      // Optional parameters appear when the contract gives them an example: samples show how a
      // real call looks, including the encoding of values such as phone numbers.
      if (example !== undefined) queryParams[parameter.name] = example;
      else if (parameter.required) {
        throw new Error(`${operationLabel(entry)}: required query parameter ${parameter.name} has no example`);
      }
    } else if (
      parameter.in === 'header' &&
      parameter.name.toLowerCase() === headerNamesOf(asJson(doc)).idempotencyKey.toLowerCase()
    ) {
      // Writes document the header. A key is unique per write, so the samples never hard-code
      // one (that would teach reuse): curl makes a fresh UUID, the client sends one by itself.
      idempotent = true;
    }
  }

  const path = entry.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(pathParams[name])));
  const query = Object.entries(queryParams)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');

  const baseUrl = defaultServerUrl(doc);
  return {
    method: entry.method.toUpperCase(),
    baseUrl,
    pathTemplate: entry.path,
    url: `${baseUrl}${path}${query ? `?${query}` : ''}`,
    pathParams,
    queryParams,
    idempotent,
    body: sampleBody(doc, entry, pathParams),
  };
}

/** The first request-body example, made to work on a fresh sandbox (see sandbox-fresh.ts). */
function sampleBody(
  doc: OpenApiDocument,
  entry: OperationEntry,
  pathParams: Record<string, unknown>,
): { value: unknown } | undefined {
  const example = firstRequestBodyExample(doc, entry.operation);
  if (!example) return undefined;
  const value = freshOnSandbox(example.value);
  if (typeof value === 'object' && value !== null && 'tags' in value)
    return { value: { ...value, tags: freshTags(pathParams.id, value.tags) } };
  return { value };
}

/** The curl header of a fresh Idempotency-Key: `uuidgen` (macOS, util-linux) runs at each call. */
export const CURL_FRESH_IDEMPOTENCY_KEY = '-H "Idempotency-Key: $(uuidgen)"';

/** POSIX single quoting: nothing inside is expanded; a `'` becomes `'\''`. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function curlSample(request: SampleRequest): string {
  const lines = [
    request.method === 'GET'
      ? `curl ${shellQuote(request.url)}`
      : `curl -X ${request.method} ${shellQuote(request.url)}`,
  ];
  // Double quotes so the shell expands the key from the environment.
  lines.push(`-H "Authorization: Api-Key $${API_KEY_VARIABLE}"`);
  if (request.idempotent) lines.push(CURL_FRESH_IDEMPOTENCY_KEY);
  if (request.body) {
    lines.push(`-H 'Content-Type: application/json'`);
    // Short bodies on the line; long ones pretty-printed (still one shell word), indented to sit
    // under the -d they belong to.
    const compact = JSON.stringify(request.body.value);
    const json = compact.length <= 80 ? compact : JSON.stringify(request.body.value, null, 2).replace(/\n/g, '\n  ');
    lines.push(`-d ${shellQuote(json)}`);
  }
  return lines.join(' \\\n  ');
}

export function clientSample(request: SampleRequest): string {
  const options: [string, unknown][] = [];
  const params: Record<string, unknown> = {};
  if (Object.keys(request.pathParams).length > 0) params.path = request.pathParams;
  if (Object.keys(request.queryParams).length > 0) params.query = request.queryParams;
  if (Object.keys(params).length > 0) options.push(['params', params]);
  if (request.body) options.push(['body', request.body.value]);

  const args = [request.pathTemplate, ...(options.length > 0 ? [Object.fromEntries(options)] : [])];
  const call = `await svc.${request.method}(${args.map((arg) => jsLiteral(arg)).join(', ')})`;

  return [
    `import { createSvcClient } from '${CLIENT_PACKAGE}';`,
    '',
    'const svc = createSvcClient({',
    `  apiKey: process.env.${API_KEY_VARIABLE},`,
    `  baseUrl: ${jsLiteral(request.baseUrl)},`,
    '});',
    '',
    ...(request.idempotent
      ? ['// The client sends a fresh Idempotency-Key with every write (the same on its retries).']
      : []),
    `const { data, error } = ${call};`,
    'if (error) console.error(error.error.code);',
    'else console.log(data);',
  ].join('\n');
}

export function codeSamplesFor(doc: OpenApiDocument, entry: OperationEntry): CodeSample[] {
  const request = sampleRequestFor(doc, entry);
  const [curl, client] = CODE_SAMPLE_LANGUAGES;
  return [
    { ...curl!, source: curlSample(request) },
    { ...client!, source: clientSample(request) },
  ];
}

/** Sets `x-codeSamples` on every operation under `paths` (webhooks are received, not called). */
export function addCodeSamples(doc: OpenApiDocument): void {
  for (const entry of listOperations(doc)) {
    entry.operation['x-codeSamples'] = codeSamplesFor(doc, entry);
  }
}

/**
 * A JavaScript literal for JSON data, formatted like hand-written code: identifier keys
 * unquoted, single-quoted strings, short objects on one line, long ones broken over lines.
 */
export function jsLiteral(value: unknown, indent = ''): string {
  const inline = jsLiteralInline(value);
  if (inline.length + indent.length <= 80 || value === null || typeof value !== 'object') return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return `[\n${value.map((item) => `${inner}${jsLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  return `{\n${entries.map(([key, item]) => `${inner}${jsKey(key)}: ${jsLiteral(item, inner)},`).join('\n')}\n${indent}}`;
}

function jsLiteralInline(value: unknown): string {
  if (typeof value === 'string') {
    // Single quotes, unless the text has an apostrophe and no double quote (as Prettier does).
    if (value.includes("'") && !value.includes('"')) return JSON.stringify(value);
    return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(jsLiteralInline).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{ ${entries.map(([key, item]) => `${jsKey(key)}: ${jsLiteralInline(item)}`).join(', ')} }`;
}

function jsKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : jsLiteralInline(key);
}
