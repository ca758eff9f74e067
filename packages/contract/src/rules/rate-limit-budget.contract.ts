// The server's own limits, reached on purpose (issue 34, item 5): response.rate-limit-budget blames a
// 429 that comes while the run owns its key and stays within the documented budget, but a run's
// ordinary traffic may never show the faults it is there for: a budget that reads and writes share
// (a write refused once a second holds as many reads as the write budget), or windows that never
// reset (a budget spent once is never given back). This check sends that traffic itself, through
// the run's pacer (which keeps every one-second window within the budget, under any windowing):
// a write budget's worth of reads, then the writes, with reads between them, one more of each class
// than one window's budget, so that the traffic outlasts a window. The writes carry a body no server
// can parse, so they change nothing (no --allow-writes needed). Each request takes its answer as it
// comes (a 429 is not waited out): a server refusing everything answers at once.
import { API_WIDE } from '../catalogue.js';
import { API_WIDE_RESOURCE } from '../filters.js';
import { MALFORMED_BODY } from '../generate/negatives.js';
import type { ApiRequest, Exchange } from '../http/exchange.js';
import type { SessionConfig } from '../types.js';
import { type CheckContext, type Problem, rule } from './harness.js';

/** Why the run's own traffic cannot be said to be within the documented budget; undefined when it can. */
export function notOwnBudget(config: SessionConfig, limits: { reads: number; writes: number }): string | undefined {
  if (config.burst) return '--burst: the run exceeds its budget on purpose';
  if (config.sharedKey === true) return "--shared-key: other clients spend the key's budget too";
  if (config.rate === null) return 'the run does not pace its requests (--rate off)';
  if (config.rate.readsPerSecond > limits.reads || config.rate.writesPerSecond > limits.writes)
    return 'the run paces above the documented budget (--rate)';
  return undefined;
}

type Kind = 'read' | 'write';

/**
 * The order of the check's requests: a write budget's worth of reads first (a server counting both
 * classes in one budget refuses the first write), then each write followed by a share of the other
 * reads; one request more of each class than one window's budget.
 */
export function pacedOrder(reads: number, writes: number): Kind[] {
  const first = Math.min(writes, reads + 1);
  const order: Kind[] = Array.from({ length: first }, () => 'read');
  let left = reads + 1 - first;
  for (let w = 0; w <= writes; w++) {
    order.push('write');
    const share = Math.ceil(left / (writes + 1 - w));
    for (let r = 0; r < share; r++) order.push('read');
    left -= share;
  }
  return order;
}

interface Paced {
  limits: { reads: number; writes: number };
  answers: Array<{ kind: Kind; exchange: Exchange }>;
}

/** The requests: a read every server answers without parameters, and a write no server can execute. */
function pacedRequests(t: CheckContext): Record<Kind, ApiRequest> {
  const { operations, limits } = t.spec.contract;
  const read = operations.find(
    (o) => o.method === 'GET' && !o.path.includes('{') && o.parameters.every((p) => !p.required),
  );
  const write = operations.find((o) => limits.writeMethods.includes(o.method) && !o.path.includes('{'));
  if (!read || !write) return t.skip('no read or write operation without path parameters');
  return {
    read: { method: read.method, path: read.path, noRetry: true },
    write: { method: write.method, path: write.path, rawBody: MALFORMED_BODY, unparseable: true, noRetry: true },
  };
}

async function sendPaced(t: CheckContext): Promise<Paced> {
  const { readRequestsPerSecond: reads, writeRequestsPerSecond: writes } = t.spec.contract.limits;
  const limits = { reads, writes };
  const why = notOwnBudget(t.config, limits);
  if (why !== undefined) return t.skip(`${why}: run owning its key, at the documented rates`, 'option');
  const requests = pacedRequests(t);
  const answers: Paced['answers'] = [];
  for (const kind of pacedOrder(reads, writes)) answers.push({ kind, exchange: await t.send(requests[kind]) });
  return { limits, answers };
}

/** The first 429 of each class, with how many more of that class came. */
function refusalProblems({ limits, answers }: Paced): Problem[] {
  return (['read', 'write'] as const).flatMap((kind) => {
    const refused = answers.filter((a) => a.kind === kind && a.exchange.status === 429);
    const first = refused[0]?.exchange;
    if (first === undefined) return [];
    const more = refused.length > 1 ? ` (and ${refused.length - 1} more of the ${kind}s)` : '';
    return [
      {
        message: `${first.request.method} ${first.request.path} → 429${more}: refused while the run, owning its key, paced its reads within ${limits.reads} and its writes within ${limits.writes} per second`,
        exchange: first,
      },
    ];
  });
}

/** The traffic outlasted one second (else a window that never resets cannot show); undefined when it did. */
function notOutlasting({ answers }: Paced): string | undefined {
  const sent = answers.map((a) => a.exchange.sentAt ?? Number.NaN);
  return Math.max(...sent) - Math.min(...sent) > 1000 ? undefined : 'the traffic did not outlast one second';
}

/** How soon after the first read the first write left (a budget shared by both classes shows within a second). */
function firstWriteAfter({ answers }: Paced): string {
  const at = (kind: Kind) => answers.find((a) => a.kind === kind)?.exchange.sentAt ?? Number.NaN;
  return `${Math.round(at('write') - at('read'))} ms`;
}

rule({
  id: 'rate-limit.within-budget',
  title:
    'Reads and writes paced within the documented per-second budgets, mixed in one second and outlasting it, are all admitted: no 429 (the run owns its key)',
  source:
    'Limits: "Read requests (GET) | 20 per second | all endpoints", "Write requests (POST, PUT, PATCH, DELETE) | 5 per second | all endpoints"; info.x-svc-limits',
  precondition:
    "the run owns its key and paces at the documented rates (no --burst, --shared-key or --rate off); a write budget's worth of reads, then the writes among more reads, one more of each class than a window holds, outlasting one second",
  operationId: API_WIDE,
  resource: API_WIDE_RESOURCE,
  needs: {},
  requests: sendPaced,
  problems: refusalProblems,
  notReached: notOutlasting,
  passed: (paced) =>
    `${paced.answers.filter((a) => a.kind === 'read').length} reads and ${paced.answers.filter((a) => a.kind === 'write').length} writes, paced (the first write ${firstWriteAfter(paced)} after the first read): none refused`,
});
