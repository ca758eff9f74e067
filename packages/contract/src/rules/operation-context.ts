// What the generated checks of one operation share: the operation, how its baseline request is
// built from the fixtures (the suite file's plan), where its verdicts belong and whether it writes.
import type { Operation, OperationParameter } from '@svc/spec-runtime';
import { expectedFor, type OpRequest } from '../expectations/expect.js';
import type { Fixtures } from '../fixtures.js';
import { sample } from '../generate/schema.js';
import type { ApiRequest } from '../http/exchange.js';
import { loadSpec, type Spec } from '../spec.js';
import type { CheckContext, Where } from './harness.js';

export interface OperationPlan {
  /** One valid request built from the fixtures (throw through need() when one is missing). */
  baseline(t: CheckContext, fixtures: Fixtures): OpRequest | Promise<OpRequest>;
  /**
   * Whether conformance.success sends the baseline. Off where a stateful scenario of the same file
   * covers success (creating a thread twice would be a 409, not a success).
   */
  success?: boolean;
  /**
   * Why no request of the operation is meant to succeed at all (a PUT whose merge or replace is
   * not shown could wipe a record): its inputs are reported as withheld, with this reason, instead
   * of counted as never sent.
   */
  withheld?: string;
  /**
   * Where the baseline addresses none of the team's resources by id (an update of one's own
   * queue), a request that does (a teammate's user_id): what the cross-team check sends instead.
   */
  otherTeam?(t: CheckContext, fixtures: Fixtures): OpRequest | Promise<OpRequest>;
  /**
   * Where the body names a resource by an id another field must agree with (a thread's entity_type
   * and entity_id), the request naming `id` (another team's) in its place, or undefined where the
   * operation takes no id of its prefix: what tenants.other-teams-resource sends.
   */
  naming?(t: CheckContext, id: string): OpRequest | undefined;
}

/** One operation's place in the contract, as its generated checks see it. */
export interface OperationUnderTest {
  spec: Spec;
  op: Operation;
  plan: OperationPlan;
  where: Where;
  /** A write that is not documented as safe: its checks need --allow-writes. */
  changesData: boolean;
  /** The plan's baseline request, skipped (config) where the contract itself would refuse it. */
  baseline(t: CheckContext): Promise<OpRequest>;
}

export function operationUnderTest(operationId: string, plan: OperationPlan): OperationUnderTest {
  const spec = loadSpec();
  const op = spec.contract.operationsById.get(operationId);
  if (!op) throw new Error(`The contract has no operation ${operationId}.`);
  const baseline = async (t: CheckContext): Promise<OpRequest> => {
    const request = await plan.baseline(t, await t.fixtures());
    const invalid = expectedFor(spec, op, request);
    if (invalid)
      return t.skip(
        `the baseline request built from the fixtures is itself invalid per the contract (${invalid.why})`,
        'config',
      );
    return request;
  };
  return {
    spec,
    op,
    plan,
    where: { operationId, resource: spec.resourceOf(op) },
    changesData: spec.contract.limits.writeMethods.includes(op.method) && !spec.isSafe(op),
    baseline,
  };
}

/** A request built from an operation's examples: enough to learn which checks apply. */
export function sampleRequest(spec: Spec, op: Operation): OpRequest {
  const samples = (pick: (p: OperationParameter) => boolean) =>
    Object.fromEntries(op.parameters.filter(pick).map((p) => [p.name, String(sample(spec, p.schema))]));
  // Required fields only: the generator adds each optional top-level field itself, broken.
  return {
    params: samples((x) => x.in === 'path'),
    query: samples((x) => x.in === 'query' && x.required),
    ...(op.requestBody ? { body: sample(spec, spec.resolve(op.requestBody.schemaPointer)) } : {}),
  };
}

/** The optional headers an operation documents as parameters, with fresh values (request id, idempotency key). */
export function documentedHeaders(op: Operation, unique: string): Partial<ApiRequest> {
  const spec = loadSpec();
  const takes = (name: string) =>
    op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === name.toLowerCase());
  return {
    ...(takes(spec.requestIdHeader) ? { requestId: `svc-contract-${unique}` } : {}),
    ...(takes(spec.idempotencyKeyHeader) ? { idempotencyKey: `svc-contract-${unique}` } : {}),
  };
}
