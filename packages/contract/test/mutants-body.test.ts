// Mutants of the large-body classes mutation testing of the reference server left (issue 34): the
// kernel reads bodies of 16 KiB or more in a worker and keeps answers of 64 K characters or more as
// bytes. Each relay here breaks the same class in front of the server instead (a large body refused
// or its error told otherwise, a large answer read again from a broken copy), so the checks are
// general. Each is caught by name and replayed; and what the description allows (other wording,
// other key order) passes.
import { afterAll, describe, expect, it } from 'vitest';
import { itCatchesEachByName, type Mutant, removeOutputs, runAgainst } from './support/mutants.js';
import { json, type Mutation, mutatingProxy, type ProxiedResponse, sandbox } from './support/servers.js';

afterAll(removeOutputs);

/** The size from which the reference server reads a body in its worker thread. */
const LARGE_BODY_BYTES = 16 * 1024;
/** The size from which the reference server keeps a read's answer as bytes. */
const LARGE_ANSWER_CHARACTERS = 64 * 1024;

const isLarge = (body: string | undefined) => Buffer.byteLength(body ?? '') >= LARGE_BODY_BYTES;
const errorIn = (b: Record<string, unknown>) =>
  typeof b.error === 'object' && b.error !== null ? (b.error as Record<string, unknown>) : undefined;

/** A refusal of a large body names no parameter (its reader reports the fault without where it lies). */
const largeRefusalWithoutParam: Mutation = {
  response: (r, q) =>
    r.status === 400 && isLarge(q.body)
      ? json(r, (b) => {
          delete errorIn(b)?.param;
        })
      : r,
};

/** A valid large body refused as unparseable (a reader that gives up on large bodies). */
const refusesLargeBodies: Mutation = {
  response: (r, q) =>
    r.status < 300 && q.method !== 'GET' && isLarge(q.body)
      ? json({ ...r, status: 400 }, (b) => {
          for (const name of Object.keys(b)) delete b[name];
          b.error = {
            type: 'validation_error',
            code: 'INVALID_REQUEST_BODY',
            message: 'The request body could not be read.',
            retryable: false,
            request_id: r.headers.get('x-request-id'),
          };
        })
      : r,
};

/** A large answer kept until the next write, and served again from a copy whose data was lost. */
function keepsBrokenLargeAnswers(): Mutation {
  const kept = new Map<string, ProxiedResponse>();
  return {
    response: (r, q) => {
      if (q.method !== 'GET') {
        kept.clear();
        return r;
      }
      const copy = kept.get(q.path);
      if (copy) return copy;
      if (r.status === 200 && r.body.length >= LARGE_ANSWER_CHARACTERS)
        kept.set(
          q.path,
          json(r, (b) => Object.assign(b, { data: {} })),
        );
      return r;
    },
  };
}

const BODY_MUTANTS: Mutant[] = [
  {
    name: 'refuses a large body without the param a small one names',
    caughtBy: 'threads.large-body',
    only: ['threads.large-body'],
    allowWrites: true,
    mutation: largeRefusalWithoutParam,
  },
  {
    name: 'refuses a valid large body as unparseable',
    caughtBy: 'receptionist.large-value',
    only: ['receptionist.large-value'],
    allowWrites: true,
    mutation: refusesLargeBodies,
  },
  {
    name: 'serves a large answer again from a copy that lost its data',
    caughtBy: 'receptionist.large-value',
    only: ['receptionist.large-value'],
    allowWrites: true,
    mutation: keepsBrokenLargeAnswers,
  },
];

const CHECKS = ['threads.large-body', 'receptionist.large-value'];

/** An object with its keys in reverse order (JSON objects are unordered). */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  );
}

/** What the description allows: every error reworded, every answer's keys in another order on every other read. */
function allowedVariations(): Mutation {
  let reads = 0;
  return {
    response: (r, q) => {
      const answer =
        q.method === 'GET' && ++reads % 2 === 0 ? json(r, (b) => Object.assign(b, { data: reversed(b.data) })) : r;
      return json(answer, (b) => {
        const error = errorIn(b);
        if (!error) return;
        error.message = `Refused (${String(error.code)}): ${String(error.message)}`;
        b.error = reversed(error);
      });
    },
  };
}

describe('the large-body classes mutation testing found: each mutant caught by name', () => {
  itCatchesEachByName(BODY_MUTANTS);

  it('the checks pass against the sandbox, and against the variations the description allows', async () => {
    const upstream = await sandbox();
    const variations = await mutatingProxy(upstream, allowedVariations());
    try {
      for (const target of [upstream, variations]) {
        const { result, failed } = await runAgainst(target, {
          name: 'allowed',
          caughtBy: '',
          only: CHECKS,
          allowWrites: true,
        });
        expect(failed).toEqual([]);
        const statuses = result.report.operations
          .flatMap((op) => op.checks)
          .filter((c) => CHECKS.includes(c.id))
          .map((c) => `${c.id} ${c.status}`);
        expect(statuses.sort()).toEqual(CHECKS.map((id) => `${id} passed`).sort());
      }
    } finally {
      await variations.close();
      await upstream.close();
    }
  });
});
