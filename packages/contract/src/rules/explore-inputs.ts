// inputs.explore: the optional query parameters a read documents, each sent with every value the
// contract names for it (its enum, its examples, the team's lines for a line filter), on top of
// the operation's baseline. Where the value depends on the resource (a summary template key that
// only some calls have), the other fixtures of the same kind are tried, up to --fixtures-per-kind.
// A documented value refused as invalid (400) is a problem; any other documented answer is not,
// and what never succeeded shows in the input-coverage table.
import { deref, type Operation, type OperationParameter } from '@svc/spec-runtime';
import type { OpRequest } from '../expectations/expect.js';
import type { Fixtures } from '../fixtures.js';
import { isPhone } from '../generate/schema.js';
import { type Exchange, errorCode } from '../http/exchange.js';
import type { Spec } from '../spec.js';
import type { CheckContext, Problem } from './harness.js';

/** The values the contract names for a query parameter: its enum, else its examples, else the team's lines. */
export function documentedValues(spec: Spec, p: OperationParameter, fixtures: Fixtures): string[] {
  const schema = deref(spec.contract, p.schema);
  if (Array.isArray(schema.enum)) return schema.enum.filter((v) => v !== null).map(String);
  if (isPhone(spec, schema)) return fixtures.lines;
  const examples = Array.isArray(schema.examples) ? schema.examples : [];
  return examples.filter((v) => typeof v === 'string' || typeof v === 'number').map(String);
}

/** The baseline with each path id swapped for another fixture of the same prefix (the first is the baseline's own). */
function variants(base: OpRequest, fixtures: Fixtures, budget: number): OpRequest[] {
  const ids = [...fixtures.items, ...fixtures.notes].map((i) => i.id);
  const out: OpRequest[] = [base];
  for (const [name, value] of Object.entries(base.params ?? {})) {
    const prefix = /^[a-z]+-/.exec(value)?.[0];
    if (!prefix) continue;
    for (const other of ids.filter((id) => id !== value && id.startsWith(prefix)).slice(0, budget - 1))
      out.push({ ...base, params: { ...base.params, [name]: other } });
  }
  return out;
}

export interface Explored {
  /** strict: a value the contract states valid for any resource (an enum value, a line of the team). */
  tried: Array<{ label: string; exchange: Exchange; strict: boolean }>;
  succeeded: string[];
}

/** Sends each documented value of each optional query parameter the baseline leaves out, until one succeeds. */
export async function explore(t: CheckContext, op: Operation, base: OpRequest): Promise<Explored> {
  const fixtures = await t.fixtures();
  const budget = t.config.fixturesPerKind ?? 20;
  const result: Explored = { tried: [], succeeded: [] };
  for (const p of op.parameters.filter((x) => x.in === 'query' && !x.required && base.query?.[x.name] === undefined)) {
    const schema = deref(t.spec.contract, p.schema);
    const strict = Array.isArray(schema.enum) || isPhone(t.spec, schema);
    for (const value of documentedValues(t.spec, p, fixtures)) {
      for (const request of variants(base, fixtures, budget)) {
        const exchange = await t.call({ ...request, query: { ...request.query, [p.name]: value } });
        result.tried.push({ label: `${p.name}=${value}`, exchange, strict });
        if (exchange.status >= 200 && exchange.status < 300) {
          result.succeeded.push(`${p.name}=${value}`);
          break;
        }
      }
    }
  }
  if (result.tried.length === 0) return t.skip('the baseline already sends every optional query parameter');
  return result;
}

/**
 * A value the contract states valid refused as invalid input: the server rejects what the
 * contract allows. An example value (a template key, which is per team) may be unknown to a server.
 */
export function exploreProblems(explored: Explored): Problem[] {
  return explored.tried
    .filter(({ exchange, strict }) => strict && exchange.status === 400)
    .map(({ label, exchange }) => ({
      message:
        `${label} is a value the contract documents, but it was refused: 400 ${errorCode(exchange) ?? ''}`.trim(),
      exchange,
    }));
}
