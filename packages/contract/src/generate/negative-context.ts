// What every kind of negative case is built with: the operation, its valid baseline request, and
// `push`, which keeps a case only where the contract forbids the mutation (its expected answer
// comes from spec-runtime, or is given by the caller for the answers validation cannot know).
import type { Operation } from '@svc/spec-runtime';
import type { CheckId } from '../catalogue.js';
import { documentedCodes, type Expected, expectedFor, type OpRequest } from '../expectations/expect.js';
import type { Spec } from '../spec.js';
import { type Path, setAt } from './negative-values.js';

export type NegativeKind = Extract<CheckId, `negative.${string}`>;

export interface NegativeCase {
  kind: NegativeKind;
  label: string;
  request: OpRequest;
  /** A body sent verbatim (malformed JSON, wrong content type). */
  raw?: { body: string; contentType?: string; unparseable?: boolean };
  expected: Expected;
  /** The documented constraint the case breaks (see constraints.ts), where it is a limit. */
  constraint?: string;
  /** Of an unknown id (negative.unknown-id): the prefix it was made of, before UNKNOWN_SUFFIX. */
  idPrefix?: string;
}

export interface NegativeContext {
  spec: Spec;
  op: Operation;
  baseline: OpRequest;
  /** A valid phone number, for fields the baseline leaves empty. */
  phoneExample: string;
  push(kind: NegativeKind, label: string, request: OpRequest, extra?: Partial<NegativeCase>): void;
  /** The baseline with one value of its body set (REMOVED: deleted): one thing broken. */
  withBodyAt(path: Path, value: unknown): OpRequest;
  /** The operation's 404, narrowed to the parameter's own code where it names one listed there. */
  notFound(param?: { errorCode?: string | Record<string, unknown> }): Expected | undefined;
}

function phoneExampleOf(spec: Spec): string {
  const examples = spec.schema('PhoneNumber')?.examples;
  return Array.isArray(examples) && typeof examples[0] === 'string' ? examples[0] : '+14155550123';
}

/** A context whose `push` appends to `cases`. */
export function negativeContext(
  spec: Spec,
  op: Operation,
  baseline: OpRequest,
  cases: NegativeCase[],
): NegativeContext {
  return {
    spec,
    op,
    baseline,
    phoneExample: phoneExampleOf(spec),
    push(kind, label, request, extra = {}) {
      const expected = extra.expected ?? expectedFor(spec, op, request);
      // A mutation the contract does not forbid is no negative input: nothing to expect.
      if (expected) cases.push({ kind, label, request, expected, ...extra });
    },
    withBodyAt: (path, value) => ({ ...baseline, body: setAt(baseline.body, path, value) }),
    notFound(param) {
      const listed = documentedCodes(spec, op, 404);
      if (listed.length === 0) return undefined;
      // The parameter's own code: x-svc-error-code as a code, or its `not-found` entry (where the
      // operation lists several not-found codes, as the tag removal does: its item's and its tag's).
      const code = param?.errorCode;
      const named = typeof code === 'string' ? code : code?.['not-found'];
      const own = typeof named === 'string' && listed.includes(named) ? [named] : listed;
      return { status: 404, codes: own, why: 'no such resource' };
    },
  };
}
