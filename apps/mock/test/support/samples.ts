// Valid requests of every operation, built from the contract alone: parameter values from their
// documented examples (or the first enum value), bodies from the request body's first example.
import type { Contract, Operation, OperationParameter } from '@svc/spec-runtime';

type Json = Record<string, any>;

/** The schema at a pointer, with $refs and single-entry allOf/anyOf followed until a value is found. */
function firstValue(contract: Contract, node: unknown, depth = 0): unknown {
  if (depth > 8 || typeof node !== 'object' || node === null) return undefined;
  const schema = node as Json;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  if (typeof schema.$ref === 'string') return firstValue(contract, contract.resolve(schema.$ref), depth + 1);
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    if (!Array.isArray(schema[key])) continue;
    for (const branch of schema[key]) {
      const found = firstValue(contract, branch, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

export function sampleValue(contract: Contract, param: OperationParameter): string {
  const holder = contract.resolve(param.schemaPointer.replace(/\/schema$/, '')) as Json;
  const value =
    holder.example ?? (holder.examples && Object.values(holder.examples)[0]) ?? firstValue(contract, param.schema);
  if (value === undefined) throw new Error(`No sample for ${param.in} parameter ${param.name}`);
  return String(value);
}

export function pathFor(contract: Contract, op: Operation, override: Record<string, string> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = op.parameters.find((p) => p.in === 'path' && p.name === name);
    if (!param) throw new Error(`${op.operationId}: no path parameter ${name}`);
    return encodeURIComponent(override[name] ?? sampleValue(contract, param));
  });
}

/** The path with the required query parameters (and `extra`) appended. */
export function urlFor(
  contract: Contract,
  op: Operation,
  options: { params?: Record<string, string>; query?: Record<string, string> } = {},
): string {
  const query = new URLSearchParams();
  for (const param of op.parameters.filter((p) => p.in === 'query' && p.required))
    query.set(param.name, sampleValue(contract, param));
  for (const [name, value] of Object.entries(options.query ?? {})) query.set(name, value);
  const search = query.toString();
  return pathFor(contract, op, options.params) + (search ? `?${search}` : '');
}

export function sampleBody(contract: Contract, op: Operation): Json | undefined {
  if (!op.requestBody) return undefined;
  const body = contract.resolve(`${op.pointer}/requestBody`) as Json;
  const media = body.content?.['application/json'] ?? {};
  const example = media.example ?? (media.examples ? (Object.values(media.examples)[0] as Json).value : undefined);
  if (example === undefined) throw new Error(`${op.operationId}: no request body example`);
  return structuredClone(example);
}

/** Example names of every documented response, per response key ('200', '404', '2XX'). */
export function responseExamples(contract: Contract, op: Operation): Array<{ key: string; name: string; value: Json }> {
  const out: Array<{ key: string; name: string; value: Json }> = [];
  for (const key of op.statuses) {
    const response = contract.resolve(`${op.pointer}/responses/${key}`) as Json;
    const examples = response?.content?.['application/json']?.examples ?? {};
    for (const [name, example] of Object.entries(examples)) out.push({ key, name, value: (example as Json).value });
  }
  return out;
}

/** The error spec-runtime (and therefore the sandbox) chooses for the same request. */
export function expectedError(
  contract: Contract,
  op: Operation,
  parts: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown },
): { code: string; status: number } | null {
  const params: Record<string, string> = {};
  for (const param of op.parameters.filter((p) => p.in === 'path'))
    params[param.name] = parts.params?.[param.name] ?? sampleValue(contract, param);
  const query = new URLSearchParams();
  for (const param of op.parameters.filter((p) => p.in === 'query' && p.required))
    query.set(param.name, sampleValue(contract, param));
  for (const [name, value] of Object.entries(parts.query ?? {})) query.set(name, value);
  const violations = contract.validateRequest(op, {
    params,
    query,
    headers: {},
    body: parts.body ?? sampleBody(contract, op),
  });
  if (violations.length === 0) return null;
  const choice = contract.errorFor(violations, op);
  return { code: choice.code, status: choice.status };
}
