// How the suite's files declare checks: each `rule()` adds one check of one operation to the
// registry, in the order the files declare them (the only way a check is written); the runner
// (execute.ts) runs them in that order. The entry also says what the check is (id, title, source,
// the spec's statements it enforces): the catalogue and RULES.md's column are written from that. A rule's requests talk to the server through its
// CheckContext (every response is also checked by the recorder) and its problems are judged by
// verdict.ts, the only place that turns them into outcomes.
import type { Operation } from '@svc/spec-runtime';
import { type CheckDescription, describeCheck } from '../check-descriptions.js';
import { answerProblems } from '../expectations/answer-fits.js';
import type { OpRequest } from '../expectations/expect.js';
import { fixtures as discoverFixtures, type Fixtures } from '../fixtures.js';
import type { ApiRequest, Exchange } from '../http/exchange.js';
import { once, type Session } from '../session.js';
import { loadSpec } from '../spec.js';
import { Skip } from '../stops.js';
import type { FailedExpectation, Held, Needs, SkipKind, Where } from '../types.js';

export type { Held, Needs, Where };

/** What a check's run comes to: its problems and what its passes exercised, for verdict.ts to decide. */
export interface Judgement {
  problems: Problem[];
  /** What a pass exercised (only asked for when there is no problem). */
  passed?: string | Held | undefined;
  held: Held[];
  /** Why the rule's precondition never held (only asked for when there is no problem): then it was not exercised. */
  notReached?: string | undefined;
}

export interface RegisteredCheck extends Where {
  id: string;
  needs: Needs;
  /** Sends the check's requests and judges them; the runner hands the judgement to verdict.ts. */
  judge: (t: CheckContext) => Promise<Judgement>;
}

const registry: RegisteredCheck[] = [];

/** A problem a rule found: what is wrong, and the exchange that shows it. */
export interface Problem {
  message: string;
  exchange?: Exchange;
  /** The answer the exchange should have got, where one answer decides (problems.ts fills it); else the rule judged a state. */
  expected?: FailedExpectation;
}

/**
 * A check as data: the requests it sends, built from what the run knows (fixtures, the contract),
 * and a function of their answers returning problems. verdict.ts (ruleOutcomes) turns those into
 * pass or fail; a throw (a Skip, a missing fixture) is a skip as for any check.
 */
export interface Rule<State> extends Where, CheckDescription {
  needs: Needs;
  /** Sends what the rule is about and keeps what its problems need (exchanges, values read). */
  requests: (t: CheckContext) => Promise<State>;
  problems: (state: State, t: CheckContext) => Problem[];
  /** What a pass exercised, for the report (optional): recorded only when no problem was found. */
  passed?: (state: State) => string | Held | undefined;
  /**
   * For a rule of several cases (each limit, each negative input): the cases that held, recorded
   * beside the problems of the others, so that what was exercised counts however the rest went.
   */
  held?: (state: State) => Held[];
  /**
   * Whether the state the description's `precondition` names was reached in this run: undefined
   * when it held, else why not (the untouched field already held the value a faulty reset would
   * write, no answer showed the value set first). Asked only when there is no problem; a rule whose
   * precondition never held is reported "not exercised: <why>" (verdict.ts), never passed.
   */
  notReached?: (state: State) => string | undefined;
}

/**
 * Declares a rule (see Rule): one entry, whatever the rule; the only way a check is written. Its
 * run sends the requests, asks for the problems, and records what verdict.ts makes of them.
 */
export function rule<State>(entry: Rule<State>): void {
  const { id, title, source, enforces, precondition, needs, requests, problems, passed, held, notReached, ...where } =
    entry;
  describeCheck({ id, title, source, ...(enforces ? { enforces } : {}), ...(precondition ? { precondition } : {}) });
  registry.push({
    id,
    ...where,
    needs,
    judge: async (t) => {
      const state = await requests(t);
      const found = problems(state, t).map((p) => withHonestJudge(p, t));
      return {
        problems: found,
        passed: found.length === 0 ? passed?.(state) : undefined,
        held: held?.(state) ?? [],
        notReached: found.length === 0 ? notReached?.(state) : undefined,
      };
    },
  });
}

/**
 * The exchanges of each check's own requests that changed data (a write answered 2xx), by seq. Kept
 * beside the context, not on it: a check's context offers only what a check needs to write.
 */
const writesByContext = new WeakMap<CheckContext, number[]>();

function writesOf(t: CheckContext): number[] {
  let writes = writesByContext.get(t);
  if (writes === undefined) {
    writes = [];
    writesByContext.set(t, writes);
  }
  return writes;
}

/** The exchanges each check's own requests made (not fixture discovery's), by seq: what a per-exchange failure names its rule on. */
const sentByContext = new WeakMap<CheckContext, Set<number>>();

/** The exchanges the check sent itself (execute.ts names the rule on a per-exchange check's failure of one of them). */
export function sentBy(t: CheckContext): ReadonlySet<number> {
  return sentByContext.get(t) ?? new Set();
}

/** Whether a request the check sent before exchange `seq` changed data. */
function changedDataBefore(t: CheckContext, seq: number): boolean {
  return writesOf(t).some((w) => w < seq);
}

/**
 * The problem with its `expected` said as replay can judge it: a problem said to be decided by its
 * one answer is a state (its rule must run again to show it) when that answer already fits what it
 * expected (what is wrong lies beyond status and code), or when an earlier request of the rule
 * changed data (the answer depends on what the rule built).
 */
function withHonestJudge(problem: Problem, t: CheckContext): Problem {
  const { expected, exchange } = problem;
  if (expected?.judge !== 'answer' || exchange === undefined) return problem;
  if (answerProblems(expected, exchange).length > 0 && !changedDataBefore(t, exchange.seq)) return problem;
  return { ...problem, expected: { judge: 'state' } };
}

/** An operation of the contract, by id, for a suite file's declarations (variants named by method). */
export function contractOperation(operationId: string): Operation {
  const op = loadSpec().contract.operationsById.get(operationId);
  if (!op) throw new Error(`The contract has no operation ${operationId}.`);
  return op;
}

/**
 * Where and when a stateful scenario of an operation runs: it belongs to the operation and its
 * resource, changes data (only with --allow-writes) and needs a server keeping state (profile full).
 */
export function statefulWrite(operationId: string, variant?: string): Where & { needs: Needs } {
  const spec = loadSpec();
  const op = contractOperation(operationId);
  return {
    operationId,
    resource: spec.resourceOf(op),
    ...(variant ? { variant } : {}),
    needs: { writes: true, stateful: true },
  };
}

/**
 * A check's description, said once, for the entries of a check that is registered more than once
 * (per operation, per method): `rule({ ...REPLAY, ...where, requests, problems })`.
 */
export function checkDescription<D extends CheckDescription>(description: D): D {
  describeCheck(description);
  return description;
}

/** Every check the suite's files declared, in declaration order. */
export function registeredChecks(): readonly RegisteredCheck[] {
  return registry;
}

/**
 * What a check receives: it sends, reads fixtures and what the run has sent, memoises, and skips.
 * The session stays private (#session): a check cannot reach the recorder, so it cannot record an
 * outcome of its own; what it finds goes back as problems.
 */
export class CheckContext {
  readonly #session: Session;

  constructor(
    session: Session,
    readonly check: string,
    readonly operationId: string,
  ) {
    this.#session = session;
  }

  get spec() {
    return this.#session.spec;
  }

  get config() {
    return this.#session.config;
  }

  /** Memoises one value per run, shared by every check (see session.ts once). */
  once<T>(name: string, make: () => Promise<T>): Promise<T> {
    return once(this.#session, name, make);
  }

  /** Whether a request that succeeded earlier in the run carried this documented input (reach/inputs.ts id). */
  everSent(operationId: string, input: string): boolean {
    return this.#session.recorder.everSent(operationId, input);
  }

  op(id: string = this.operationId): Operation {
    const op = this.spec.contract.operationsById.get(id);
    if (!op) throw new Error(`The contract has no operation ${id}.`);
    return op;
  }

  fixtures(): Promise<Fixtures> {
    return discoverFixtures(this.#session);
  }

  async send(request: ApiRequest): Promise<Exchange> {
    const exchange = await this.#session.client.send(request);
    const sent = sentByContext.get(this) ?? new Set<number>();
    sentByContext.set(this, sent.add(exchange.seq));
    const wrote =
      exchange.status >= 200 && exchange.status < 300 && this.spec.changesData(request.method, request.path);
    if (wrote) writesOf(this).push(exchange.seq);
    return exchange;
  }

  /** Sends an OpRequest to an operation (path parameters are encoded here). */
  call(request: OpRequest, extra: Partial<ApiRequest> = {}, operationId: string = this.operationId): Promise<Exchange> {
    const op = this.op(operationId);
    return this.send({
      method: op.method,
      path: encodePath(op, request.params),
      ...(request.query ? { query: request.query } : {}),
      ...(request.body !== undefined ? { body: request.body } : {}),
      ...extra,
    });
  }

  /**
   * Skips the check: by default because the contract gives it nothing to check here ('n/a');
   * 'config' where the configuration lacks what it needs (counted against --max-skipped).
   */
  skip(reason: string, kind: SkipKind = 'n/a'): never {
    throw new Skip(reason, kind);
  }
}

export function encodePath(op: Operation, params: Record<string, string> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`No value for path parameter ${name} of ${op.operationId}.`);
    return encodeURIComponent(value);
  });
}
