// A partial update whose body fields are all optional, sent none of them: "All body fields are
// optional" (custom fields), "All fields are optional; only supplied fields are touched" (the
// dialer queue), "an omitted one keeps its current value … an omitted one is left alone" (the
// receptionist). An empty body is then a valid request that changes nothing, so it succeeds; a
// server that demands at least one field refuses what the description allows.
import { deref, isObject } from '@svc/spec-runtime';
import { type Exchange, errorCode } from '../http/exchange.js';
import { rule } from './harness.js';
import type { OperationUnderTest } from './operation-context.js';
import { isSuccess, unless } from './problems.js';

/** Whether the operation's body is a merge (x-svc-merge-rules) of fields none of which is required. */
function takesEmptyMerge(u: OperationUnderTest): boolean {
  const pointer = u.op.requestBody?.schemaPointer;
  if (!pointer) return false;
  const body = deref(u.spec.contract, u.spec.resolve(pointer));
  if (!isObject(body) || !isObject(body['x-svc-merge-rules'])) return false;
  return !Array.isArray(body.required) || body.required.length === 0;
}

export function emptyBodyRule(u: OperationUnderTest): void {
  if (!takesEmptyMerge(u)) return;
  rule({
    id: 'conformance.empty-update',
    title: 'A partial update whose fields are all optional, sent none of them ({}), succeeds',
    source:
      'x-svc-merge-rules with no required field: "All body fields are optional" (updateCustomField), "All fields are optional; only supplied fields are touched" (the dialer queue), omitted values and collections kept (the receptionist)',
    precondition: "the operation's valid request (the baseline's path) with an empty body",
    ...u.where,
    needs: { writes: u.changesData, stateful: true },
    requests: async (t): Promise<Exchange> => t.call({ ...(await u.baseline(t)), body: {} }),
    problems: (exchange) =>
      unless(
        exchange.error === undefined && isSuccess(exchange.status),
        `${u.op.method} ${u.op.path} with an empty body: got ${exchange.error ?? exchange.status}${errorCode(exchange) ? ` ${errorCode(exchange)}` : ''}, though no field is required`,
        exchange,
      ),
  });
}
