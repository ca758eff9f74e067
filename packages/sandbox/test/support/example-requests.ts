// The requests the contract's own examples make: for each operation, its path and query
// parameters set to their examples and each request-body example in turn (or no body), with the
// success responses the operation documents and their examples. Read from the bundle through
// spec-runtime, as any tool that sends the examples (Portman, Postman, Prism) reads them.

import { readFileSync } from 'node:fs';
import { type Contract, follow, isObject, type JsonObject } from '@svc/spec-runtime';
import { operationEntries, ownExample, parameterObjects, requestBodyMedia } from '@svc/spec-runtime/walk';

export interface ExampleRequest {
  operationId: string;
  /** The request-body example's name ('' when the operation takes no body), and its place among them. */
  name: string;
  index: number;
  method: string;
  /** Path and query, encoded as a client sends them. */
  path: string;
  body?: unknown;
  /** The 2xx statuses the operation documents, with the examples each one shows, by name. */
  successes: Map<number, Map<string, unknown>>;
}

/** A parameter's example: its own, else its schema's `examples[0]` or `example`. */
function parameterExample(bundle: JsonObject, parameter: JsonObject): unknown {
  const own = ownExample(bundle, parameter);
  if (own) return own.value;
  const { node: schema } = follow(bundle, parameter.schema, '#');
  if (!isObject(schema)) return undefined;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  return schema.example;
}

function namedExamples(bundle: JsonObject, holder: JsonObject | undefined): [string, unknown][] {
  const examples = isObject(holder?.examples) ? holder.examples : {};
  return Object.entries(examples).flatMap(([name, raw]) => {
    const { node } = follow(bundle, raw, '#');
    return isObject(node) && 'value' in node ? [[name, node.value] as [string, unknown]] : [];
  });
}

function successesOf(bundle: JsonObject, operation: JsonObject): Map<number, Map<string, unknown>> {
  const successes = new Map<number, Map<string, unknown>>();
  for (const [key, raw] of Object.entries(isObject(operation.responses) ? operation.responses : {})) {
    if (!/^2\d\d$/.test(key)) continue;
    const { node: response } = follow(bundle, raw, '#');
    const media = isObject(response) && isObject(response.content) ? response.content['application/json'] : undefined;
    successes.set(Number(key), new Map(namedExamples(bundle, isObject(media) ? media : undefined)));
  }
  return successes;
}

function pathOf(bundle: JsonObject, template: string, parameters: JsonObject[]): string {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
    return encodeURIComponent(String(parameter ? parameterExample(bundle, parameter) : name));
  });
  const query = parameters
    .filter((p) => p.in === 'query')
    .flatMap((p) => {
      const value = parameterExample(bundle, p);
      return value === undefined ? [] : [`${encodeURIComponent(String(p.name))}=${encodeURIComponent(String(value))}`];
    });
  return query.length ? `${path}?${query.join('&')}` : path;
}

/** Every operation's example requests, in document order. */
export function exampleRequests(contract: Contract): ExampleRequest[] {
  const bundle = contract.bundle;
  return operationEntries(bundle).flatMap((entry) => {
    const parameters = parameterObjects(bundle, entry).map(({ parameter }) => parameter);
    const operationId = String(entry.operation.operationId);
    const base = {
      operationId,
      method: entry.method.toUpperCase(),
      path: pathOf(bundle, entry.path, parameters),
      successes: successesOf(bundle, entry.operation),
    };
    const bodies = namedExamples(bundle, requestBodyMedia(bundle, entry.operation));
    if (bodies.length === 0) return [{ ...base, name: '', index: 0 }];
    return bodies.map(([name, body], index) => ({ ...base, name, index, body }));
  });
}

const seedText = readFileSync(new URL('../../fixtures/seed.json', import.meta.url), 'utf8');
export const label = (r: ExampleRequest) => `${r.operationId}${r.name ? ` (${r.name})` : ''}`;

// A prefixed id (cth-5Lm1zX7e) or a timestamp that the seed does not hold was made by the request.
const ID = /^[a-z]{3}-[A-Za-z0-9]+$/;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$/;
function generatedAway(value: unknown): unknown {
  if (typeof value === 'string') {
    if (ID.test(value) && !seedText.includes(`"${value}"`)) return '<generated id>';
    if (TIME.test(value) && !seedText.includes(`"${value}"`)) return '<generated time>';
    return value;
  }
  if (Array.isArray(value)) return value.map(generatedAway);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, generatedAway(v)]));
  return value;
}

/**
 * Problems of an answer against the example request's documented successes (none: it holds). The
 * answer must equal the response example of the request example's own name, else (the first
 * request example) one of the status's examples; a further request example only needs a status.
 */
// What the sandbox adds to an answer beyond the contract, so that a test can observe an effect
// (its README says so): not part of any example, so left out of the comparison.
const SANDBOX_ADDITIONS: Record<string, (body: unknown) => unknown> = {
  listConversations: (body) => {
    const { data, ...rest } = body as { data: Record<string, unknown>[] };
    return { data: data.map(({ read: _read, archived: _archived, ...entry }) => entry), ...rest };
  },
};

export function problems(r: ExampleRequest, answer: { status: number; body: unknown; text: string }): string[] {
  const examples = r.successes.get(answer.status);
  if (!examples) return [`${label(r)}: ${answer.status} is not a documented success: ${answer.text.slice(0, 300)}`];
  const own = examples.get(r.name);
  const candidates = own !== undefined ? [own] : r.index === 0 ? [...examples.values()] : [];
  if (candidates.length === 0) return [];
  const contractual = SANDBOX_ADDITIONS[r.operationId]?.(answer.body) ?? answer.body;
  const got = JSON.stringify(generatedAway(contractual));
  if (candidates.some((e) => JSON.stringify(generatedAway(e)) === got)) return [];
  return [`${label(r)}: the answer equals none of its ${candidates.length} example(s):\n${got}`];
}
