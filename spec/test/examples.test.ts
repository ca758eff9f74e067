import { describe, expect, it } from 'vitest';
import {
  bundle,
  errorResponseConstraint,
  escapePointer,
  type Json,
  operations,
  resolve,
  validatorAt,
  webhookOperations,
} from './support/spec.js';

interface ExampleCase {
  where: string;
  schemaPointer: string;
  value: unknown;
}

/**
 * Every example in the bundle with the pointer of the schema it illustrates: media-type and
 * parameter `examples` maps (siblings of `schema`), and JSON Schema `examples` arrays.
 */
function collectExamples(node: Json, pointer: string, out: ExampleCase[] = []): ExampleCase[] {
  if (!node || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    for (const [i, child] of node.entries()) collectExamples(child, `${pointer}/${i}`, out);
    return out;
  }
  if (node.schema && node.examples && !Array.isArray(node.examples)) {
    for (const [name, example] of Object.entries<Json>(node.examples)) {
      out.push({
        where: `${pointer}/examples/${name}`,
        schemaPointer: `${pointer}/schema`,
        value: resolve(example).value,
      });
    }
  }
  if (node.schema && 'example' in node) {
    out.push({ where: `${pointer}/example`, schemaPointer: `${pointer}/schema`, value: node.example });
  }
  if (Array.isArray(node.examples) && isSchemaPointer(pointer)) {
    for (const [i, value] of (node.examples as unknown[]).entries())
      out.push({ where: `${pointer}/examples/${i}`, schemaPointer: pointer, value });
  }
  for (const [key, child] of Object.entries<Json>(node)) {
    if (key.startsWith('x-') || key === 'examples' || key === 'example' || key === 'enum' || key === 'const') continue;
    collectExamples(child, `${pointer}/${escapePointer(key)}`, out);
  }
  return out;
}

const isSchemaPointer = (pointer: string) => /\/schema(\/|$)|^#\/components\/schemas\//.test(pointer);

const examples = collectExamples(bundle, '#');

describe('examples', () => {
  it('are found throughout the bundle', () => {
    expect(examples.length).toBeGreaterThan(200);
  });

  it.each(examples.map((e) => [e.where, e] as const))('%s validates against its schema', (_where, example) => {
    const validate = validatorAt(example.schemaPointer);
    const valid = validate(example.value);
    expect(validate.errors ?? [], JSON.stringify(example.value)).toEqual([]);
    expect(valid).toBe(true);
  });
});

function responsesOf(op: Json): [string, Json][] {
  return Object.entries<Json>(op.responses ?? {}).map(([status, response]) => [status, resolve(response)]);
}

describe('every operation', () => {
  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    '%s has a success example and an example of every error code it documents',
    (_name, { op }) => {
      const success = responsesOf(op).filter(([status]) => status.startsWith('2'));
      expect(success.length).toBeGreaterThan(0);
      for (const [status, response] of success) {
        const media = response.content?.['application/json'];
        if (media) expect(Object.keys(media.examples ?? {}), `success ${status}`).not.toHaveLength(0);
      }
      for (const [status, response] of responsesOf(op).filter(([s]) => /^[45]/.test(s))) {
        const { codes } = errorResponseConstraint(response);
        const shown = Object.values<Json>(response.content['application/json'].examples ?? {}).map(
          (example) => resolve(example).value.error.code,
        );
        for (const code of codes) expect(shown, `${status} ${code}`).toContain(code);
      }
    },
  );

  it('has request body examples wherever it takes a body', () => {
    for (const { method, path, op } of [...operations, ...webhookOperations]) {
      if (!op.requestBody) continue;
      const media = resolve(op.requestBody).content['application/json'];
      expect(Object.keys(media.examples ?? {}), `${method} ${path}`).not.toHaveLength(0);
    }
  });
});

describe('error examples', () => {
  const errorExamples = examples.filter(
    (e) => /\/responses\//.test(e.where) && typeof (e.value as Json)?.error === 'object',
  );

  it('use generated request ids (req_ + 12 alphanumerics), as a server would without X-Request-Id', () => {
    expect(errorExamples.length).toBeGreaterThan(50);
    for (const { where, value } of errorExamples) {
      expect((value as Json).error.request_id, where).toMatch(/^req_[A-Za-z0-9]{12}$/);
    }
  });
});
