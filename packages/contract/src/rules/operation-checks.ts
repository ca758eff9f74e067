// The checks every operation gets, generated from its place in the contract: success, its inputs
// explored, every line and every page read, request-id echo, authentication (no key, malformed
// header, unknown key), scopes, the declared key kinds, the limits from inside, every kind of
// negative input its parameters and body allow, and two of them at once; the replay of a key on a
// write method that changes nothing (a search). A suite file only says how to build one valid
// request for the operation from the fixtures (its baseline); everything else is read from the spec.

import { LINE_FORBIDDEN } from '../expectations/readings.js';
import { errorCode } from '../http/exchange.js';
import { eachLineProblems, linePathParameter, readEachLine } from './each-line.js';
import { explore, exploreProblems } from './explore-inputs.js';
import { rule } from './harness.js';
import { listProblems, pagingOf, unwalkedLines, walkList } from './lists-walk.js';
import {
  authenticationRules,
  insufficientScopeRule,
  keyKindRule,
  lineForbiddenRule,
  lineOfOtherTeamRule,
  sufficientScopeRule,
} from './operation-auth.js';
import {
  documentedHeaders,
  type OperationPlan,
  type OperationUnderTest,
  operationUnderTest,
} from './operation-context.js';
import { emptyBodyRule } from './operation-empty-body.js';
import { boundaryRule, negativeRules, requestIdRule } from './operation-inputs.js';
import { safeWriteReplayRule } from './operation-replay.js';
import { otherTeamRule, otherTeamsResourceRule } from './operation-tenancy.js';
import { isSuccess, unless } from './problems.js';
import { severalFieldsRule } from './several-fields.js';

export { INSUFFICIENT_SCOPE, LINE_FORBIDDEN } from '../expectations/readings.js';
export { keysHoldingScope, keysLackingScope, onLine, REVOKED, TRIAL_NOT_ALLOWED } from './operation-auth.js';
export { documentedHeaders, type OperationPlan } from './operation-context.js';
export { negativeKinds } from './operation-inputs.js';

const withheld = new Map<string, string>();

/** The operations no request is meant to succeed on, each with the reason (OperationPlan.withheld). */
export function withheldOperations(): ReadonlyMap<string, string> {
  return withheld;
}

/** The baseline succeeds, sent with every documented header it takes. */
function successRule(u: OperationUnderTest): void {
  const { op, where, changesData } = u;
  if (u.plan.success === false) return;
  rule({
    id: 'conformance.success',
    title: 'A valid request succeeds (2xx)',
    source: "the operation's success response",
    precondition: 'a valid request built from the fixtures (the baseline)',
    ...where,
    needs: { writes: changesData },
    // With every documented header it takes (its own request id, an idempotency key), so that
    // they too are sent in a request that succeeded (input coverage).
    requests: async (t) => t.call(await u.baseline(t), documentedHeaders(op, `${t.config.runId}-${op.operationId}-ok`)),
    problems: (exchange) =>
      unless(
        exchange.error === undefined && isSuccess(exchange.status),
        `${op.method} ${op.path} with a valid request: got ${exchange.error ?? exchange.status}${errorCode(exchange) ? ` ${errorCode(exchange)}` : ''}`,
        exchange,
      ),
  });
}

/** What a read reaches beyond its baseline: each optional input, each line, each page. */
function readReachRules(u: OperationUnderTest): void {
  const { spec, op, where } = u;
  if (u.changesData) return;
  if (op.parameters.some((p) => p.in === 'query' && !p.required))
    rule({
      id: 'inputs.explore',
      title: 'Every optional query parameter is accepted with each value the contract names for it',
      source: 'query parameters: enum, examples, the team lines for a line filter',
      precondition: 'a read with optional query parameters, each sent with each value the contract names',
      ...where,
      needs: {},
      requests: async (t) => explore(t, op, await u.baseline(t)),
      problems: exploreProblems,
      passed: (explored) => `sent ${explored.tried.map((x) => x.label).join(', ')}`,
    });
  if (linePathParameter(spec, op, LINE_FORBIDDEN))
    rule({
      id: 'reads.every-line',
      title: 'A read whose path names a line succeeds on every line of the team, with a key allowed on it',
      source: 'path parameters of type PhoneNumber + the lines of GET /v2/api/numbers',
      precondition:
        'every line of the team (GET /v2/api/numbers, up to --fixtures-per-kind), each with a key allowed on it (the run key, else a line-limited config key listing it)',
      ...where,
      needs: { stateful: true },
      requests: async (t) => readEachLine(t, op, await u.baseline(t), LINE_FORBIDDEN),
      problems: eachLineProblems,
      passed: ({ reads }) => `read on ${reads.map((r) => `${r.line} (${r.key})`).join(', ')}`,
    });
  // A stateless mock invents each page on its own: only a server that holds the list is walked.
  if (pagingOf(spec, op))
    rule({
      id: 'lists.walk',
      title:
        'A paged list walked whole at a small size, at the largest, and on one page exactly filled: the pages partition it, the counts agree, and the page after the last is a page, never refused as invalid',
      source: 'Pagination (page, size, total_count, total_pages, has_more) + info.x-svc-limits.page_size_max',
      precondition:
        "a list of the team holding more entries than one small page (the team's data), and each line's share of it where the list filters by line",
      ...where,
      needs: { stateful: true },
      requests: async (t) => walkList(t, op, await u.baseline(t)),
      problems: listProblems,
      held: unwalkedLines,
      passed: ({ small, whole, exact }) =>
        `walked at size ${whole.size} (${whole.pages.length} page) and ${small.size} (${small.pages.length} pages)${exact ? `, and on one page of exactly ${exact.size}` : ''}`,
    });
}

/** Declares the generated checks of one operation, in the order the runner runs them (its scenarios are rule() entries after it). */
export function operationChecks(operationId: string, plan: OperationPlan): void {
  if (plan.withheld) withheld.set(operationId, plan.withheld);
  const u = operationUnderTest(operationId, plan);
  successRule(u);
  readReachRules(u);
  requestIdRule(u);
  authenticationRules(u);
  insufficientScopeRule(u);
  sufficientScopeRule(u);
  keyKindRule(u, 'revoked');
  keyKindRule(u, 'trial');
  keyKindRule(u, 'legacy-workspace');
  lineForbiddenRule(u);
  lineOfOtherTeamRule(u);
  otherTeamRule(u);
  otherTeamsResourceRule(u);
  boundaryRule(u);
  emptyBodyRule(u);
  negativeRules(u);
  severalFieldsRule(u);
  safeWriteReplayRule(u);
}
