// The console's copy of the bundle: the published contract, with each operation's path and query
// parameters and its first request-body example set to the values the code samples send (the
// contract's examples, made to work on a fresh sandbox by sandbox-fresh.ts), so that pressing send
// on an operation as the page opens it calls the sandbox with a request that can succeed. Each
// operation gets its own copies (shared components stay as they are), and the Idempotency-Key
// parameter loses its example: one fixed key pre-filled on every write would turn the second
// write into a replay or a conflict. The bundle itself is never modified.
import { headerNamesOf } from '@svc/spec-runtime/walk';
import { sampleRequestFor } from '../code-samples.js';
import {
  asJson,
  listOperations,
  type MediaType,
  type OpenApiDocument,
  type OperationEntry,
  type Parameter,
  parametersOf,
  requestMediaOf,
  resolve,
} from '../openapi.js';

/** A parameter as the console pre-fills it: the sample's value, or none for the Idempotency-Key. */
function consoleParameter(parameter: Parameter, values: Record<string, unknown>, idempotencyKey: string): Parameter {
  const { example: _example, examples: _examples, ...rest } = parameter;
  if (parameter.in === 'header' && parameter.name.toLowerCase() === idempotencyKey.toLowerCase()) return rest;
  if (!(parameter.name in values) || (parameter.in !== 'path' && parameter.in !== 'query')) return parameter;
  return { ...rest, example: values[parameter.name] };
}

/** The media type with its first example's value replaced by `value` (the others kept, each resolved). */
function consoleMedia(doc: OpenApiDocument, media: MediaType, value: unknown): MediaType {
  const { example: _example, examples, ...rest } = media;
  const entries = Object.entries(examples ?? {}).map(([name, example]) => [name, resolve(doc, example)] as const);
  const [[name, first] = ['example', {}], ...others] = entries;
  return { ...rest, examples: Object.fromEntries([[name, { ...first, value }], ...others]) };
}

function prefill(doc: OpenApiDocument, entry: OperationEntry, idempotencyKey: string): void {
  const sample = sampleRequestFor(doc, entry);
  const values = { ...sample.queryParams, ...sample.pathParams };
  const { operation } = entry;
  operation.parameters = parametersOf(doc, entry).map((parameter) =>
    consoleParameter(parameter, values, idempotencyKey),
  );
  const media = requestMediaOf(doc, operation);
  if (!media || !sample.body || !operation.requestBody) return;
  const body = resolve(doc, operation.requestBody);
  operation.requestBody = {
    ...body,
    content: { ...body.content, 'application/json': consoleMedia(doc, media, sample.body.value) },
  };
}

export function makeConsoleSpec(bundle: OpenApiDocument): OpenApiDocument {
  const spec = structuredClone(bundle);
  const { idempotencyKey } = headerNamesOf(asJson(bundle));
  // Each operation gets new parameter and body objects: the shared components the next operation
  // reads its sample from are never changed.
  for (const entry of listOperations(spec)) prefill(spec, entry, idempotencyKey);
  return spec;
}
