// How the suite's test files declare checks. Each vitest test is one check of one operation:
// it runs, records its verdict (and every response it received is checked by the recorder), then
// hands its record to the main process through the test's meta. Requirements (writes, a stateful
// server, a server that knows keys, --burst) and missing fixtures turn a check into a skip with
// the reason, never into a pass.
import { describe, inject, test } from 'vitest';
import type { Operation } from '@svc/spec-runtime';
import { API_WIDE, type CheckId } from '../checks/catalogue.js';
import { errorProblems, type Expected, type OpRequest } from '../checks/expect.js';
import { fixtures as discoverFixtures, MissingFixture, type Fixtures } from '../fixtures.js';
import { WritesDisabledError } from '../http/client.js';
import type { ApiRequest, Exchange } from '../http/exchange.js';
import type { CheckOutcome, SessionConfig, SkipKind, TestRecord } from '../model.js';
import { session as currentSession, type Session } from '../session.js';
import { loadSpec } from '../spec.js';
import { matchesOnly } from '../filters.js';

declare module 'vitest' {
  export interface ProvidedContext {
    svcContract: SessionConfig;
  }
  export interface TaskMeta {
    svc?: TestRecord;
  }
}

export interface Needs {
  /** Changes data: only with --allow-writes. */
  writes?: boolean;
  /** Depends on what the server holds: profile full only. */
  stateful?: boolean;
  /** Needs a server that tells keys apart (unknown keys, scopes): profile full only. */
  keys?: boolean;
  /** Opt-in with --burst. */
  burst?: boolean;
}

class Skip extends Error {
  constructor(
    message: string,
    readonly kind: SkipKind,
  ) {
    super(message);
  }
}

const TEST_TIMEOUT_MS = 10 * 60_000;

export function sessionNow(): Session {
  return currentSession(() => inject('svcContract'));
}

/** Whether --only selects this check (see filters.ts). */
export function selected(config: Pick<SessionConfig, 'only'>, resource: string, operationId: string, check: string): boolean {
  return matchesOnly(config.only, resource, operationId, check);
}

function unmet(needs: Needs, config: SessionConfig): string | undefined {
  if (needs.burst && !config.burst) return 'opt-in: run with --burst';
  if ((needs.stateful || needs.keys) && config.profile !== 'full') {
    return needs.keys ? 'profile mock: a stateless mock accepts any key, so this needs --profile full' : 'profile mock: needs a stateful server (--profile full)';
  }
  if (needs.writes && !config.allowWrites) return 'changes data: run with --allow-writes';
  return undefined;
}

export class CheckContext {
  private failed = false;
  private passes = 0;

  constructor(
    readonly session: Session,
    readonly check: CheckId,
    readonly operationId: string,
  ) {}

  get spec() {
    return this.session.spec;
  }

  get config() {
    return this.session.config;
  }

  op(id: string = this.operationId): Operation {
    const op = this.spec.contract.operationsById.get(id);
    if (!op) throw new Error(`The contract has no operation ${id}.`);
    return op;
  }

  fixtures(): Promise<Fixtures> {
    return discoverFixtures(this.session);
  }

  send(request: ApiRequest): Promise<Exchange> {
    return this.session.client.send(request);
  }

  /** Sends an OpRequest to an operation (path parameters are encoded here). */
  call(request: OpRequest, extra: Partial<ApiRequest> = {}, operationId: string = this.operationId): Promise<Exchange> {
    return this.send(toApiRequest(this.op(operationId), request, extra));
  }

  /** A scenario's verdict for this check; several are fine (each failure is reported). */
  fail(message: string, exchange?: Exchange): void {
    this.failed = true;
    this.session.recorder.add({ check: this.check, operationId: this.operationId, status: 'failed', detail: message, ...(exchange ? { exchange: exchange.seq } : {}) });
  }

  /** A pass; `constraint`: the documented request constraint it exercised (for coverage). */
  pass(detail?: string, constraint?: CheckOutcome['constraint']): void {
    this.passes++;
    this.session.recorder.add({ check: this.check, operationId: this.operationId, status: 'passed', ...(detail !== undefined ? { detail } : {}), ...(constraint ? { constraint } : {}) });
  }

  /** true when the condition holds; records a failure otherwise. */
  expect(condition: boolean, message: string, exchange?: Exchange): boolean {
    if (!condition) this.fail(message, exchange);
    return condition;
  }

  /** The response is the expected error (status and one of the codes). */
  expectError(exchange: Exchange, expected: Expected, label?: string): boolean {
    const problems = errorProblems(exchange, expected);
    for (const p of problems) this.fail(label ? `${label}: ${p}` : p, exchange);
    return problems.length === 0;
  }

  expectStatus(exchange: Exchange, accepted: (status: number) => boolean, what: string): boolean {
    const code = (exchange.body as { error?: { code?: string } } | undefined)?.error?.code;
    return this.expect(exchange.error === undefined && accepted(exchange.status), `${what}: got ${exchange.error ?? exchange.status}${code ? ` ${code}` : ''}`, exchange);
  }

  /** Skips the check: by default because the contract gives it nothing to check here ('n/a'). */
  skip(reason: string, kind: SkipKind = 'n/a'): never {
    throw new Skip(reason, kind);
  }

  /** Skips the check because the configuration lacks what it needs (counted against --max-skipped). */
  skipForConfig(reason: string): never {
    throw new Skip(reason, 'config');
  }

  get hasFailed(): boolean {
    return this.failed;
  }

  get passCount(): number {
    return this.passes;
  }
}

export function encodePath(op: Operation, params: Record<string, string> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`No value for path parameter ${name} of ${op.operationId}.`);
    return encodeURIComponent(value);
  });
}

export function toApiRequest(op: Operation, request: OpRequest, extra: Partial<ApiRequest> = {}): ApiRequest {
  return {
    method: op.method,
    path: encodePath(op, request.params),
    ...(request.query ? { query: request.query } : {}),
    ...(request.body !== undefined ? { body: request.body } : {}),
    ...extra,
  };
}

/** The tests of one operation (a describe block named by its operationId). */
export function forOperation(operationId: string, define: (op: Operation) => void): void {
  const spec = loadSpec();
  const op = spec.contract.operationsById.get(operationId);
  if (!op) throw new Error(`The contract has no operation ${operationId}.`);
  describe(operationId, () => define(op));
}

/** Where a scenario check of an operation belongs (its operationId and resource). */
export function scenarioOf(op: Operation): { operationId: string; resource: string } {
  return { operationId: op.operationId, resource: loadSpec().resourceOf(op) };
}

/** The API-wide checks (unknown paths, wrong methods, bursts). */
export function apiWide(define: () => void): void {
  describe(API_WIDE, define);
}

/**
 * Declares one check. `operationId` is the operation the verdict belongs to (the enclosing
 * describe's); `variant` tells tests of the same check apart in the progress output.
 */
export function check(id: CheckId, where: { operationId: string; resource: string; variant?: string }, needs: Needs, run: (t: CheckContext) => Promise<void>): void {
  const config = inject('svcContract');
  if (!selected(config, where.resource, where.operationId, id)) return;
  const name = where.variant ? `${id} (${where.variant})` : id;
  test(name, { timeout: TEST_TIMEOUT_MS }, async (ctx) => {
    const s = sessionNow();
    const t = new CheckContext(s, id, where.operationId);
    let skipped: string | undefined = unmet(needs, s.config);
    let skipKind: SkipKind = 'option';
    try {
      if (skipped === undefined) await run(t);
    } catch (error) {
      if (error instanceof Skip) [skipped, skipKind] = [error.message, error.kind];
      else if (error instanceof MissingFixture) [skipped, skipKind] = [error.message, 'config'];
      else if (error instanceof WritesDisabledError) [skipped, skipKind] = [`changes data: run with --allow-writes (${error.message})`, 'option'];
      else s.recorder.add({ check: 'suite.error', operationId: where.operationId, status: 'failed', detail: `${id}: ${(error as Error).stack ?? String(error)}` });
    }
    if (skipped !== undefined) s.recorder.add({ check: id, operationId: where.operationId, status: 'skipped', detail: skipped, skipKind });
    else if (!t.hasFailed && t.passCount === 0) t.pass();
    const record = s.recorder.drain();
    ctx.task.meta.svc = record;
    const failures = record.outcomes.filter((o) => o.status === 'failed');
    if (failures.length > 0) throw new Error(failures.map((f) => `${f.check} [${f.operationId}]: ${f.detail ?? ''}`).join('\n'));
    if (skipped !== undefined) ctx.skip(skipped);
  });
}
