// Checks that belong to no operation: unknown paths, undocumented methods, and (opt-in) a burst
// over the read limit. Expected codes are the catalogue's API-wide codes, found through the
// contract's own route matching.
import { API_WIDE, type CheckId } from '../checks/catalogue.js';
import { API_WIDE_RESOURCE } from '../filters.js';
import { MALFORMED_BODY } from '../generate/negatives.js';
import { sample } from '../generate/schema.js';
import { type Exchange, errorOf, header } from '../http/exchange.js';
import { type CheckContext, check } from './harness.js';

const where = { operationId: API_WIDE, resource: API_WIDE_RESOURCE };

function expectedFromRoute(t: CheckContext, method: string, path: string) {
  const match = t.spec.contract.matchRoute(method, path);
  if (!('error' in match)) return t.skip(`${method} ${path} is a documented operation`);
  const entry = t.spec.contract.catalogue.get(match.error);
  if (!entry) return t.skip(`the catalogue has no ${match.error}`);
  return { status: entry.status, codes: [entry.code], why: `the contract's route matching says ${entry.code}` };
}

check('routing.unknown-path', where, {}, async (t) => {
  for (const path of [
    '/v2/api/svc-contract-unknown',
    '/v2/api/threads/cth-1/svc-contract-unknown',
    '/svc-contract-unknown',
  ]) {
    const expected = expectedFromRoute(t, 'GET', path);
    if (t.expectError(await t.send({ method: 'GET', path }), expected, `GET ${path}`)) t.pass(`GET ${path}`);
  }
});

check('routing.wrong-method', where, {}, async (t) => {
  const byPath = new Map<string, Set<string>>();
  for (const op of t.spec.contract.operations) byPath.set(op.path, (byPath.get(op.path) ?? new Set()).add(op.method));
  for (const [template, methods] of byPath) {
    // GET where it is not documented; otherwise a write method with a body no server can parse,
    // so that even a server that wrongly accepts the method cannot change anything.
    const method = ['GET', 'DELETE', 'PATCH', 'PUT', 'POST'].find((m) => !methods.has(m));
    if (!method) continue;
    const ops = t.spec.contract.operations.filter((op) => op.path === template);
    const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const param = ops.flatMap((op) => op.parameters).find((p) => p.in === 'path' && p.name === name);
      return encodeURIComponent(String(param ? sample(t.spec, param.schema) : 'x'));
    });
    const expected = expectedFromRoute(t, method, decodeURIComponent(path));
    const exchange = await t.send({
      method,
      path,
      ...(method === 'GET' ? {} : { rawBody: MALFORMED_BODY, unparseable: true }),
    });
    if (t.expectError(exchange, expected, `${method} ${template}`)) t.pass(`${method} ${template}`);
  }
});

check('rate-limit.burst' as CheckId, where, { burst: true }, async (t) => {
  const op = t.spec.contract.operations.find((o) => o.method === 'GET' && o.parameters.every((p) => !p.required));
  if (!op) return t.skip('no read operation without required parameters');
  const count = t.spec.contract.limits.readRequestsPerSecond * 2 + 5;
  const burst: Exchange[] = await Promise.all(
    Array.from({ length: count }, () => t.send({ method: 'GET', path: op.path, bypassRateLimit: true, noRetry: true })),
  );
  const limited = burst.filter((e) => e.status === 429);
  if (
    !t.expect(
      limited.length > 0,
      `${count} simultaneous ${op.method} ${op.path}: no 429 (statuses ${[...new Set(burst.map((e) => e.status))].join(', ')})`,
    )
  )
    return;
  const codes = op.codesByStatus.get(429) ?? new Set<string>();
  let wait = 1;
  for (const e of limited) {
    const error = errorOf(e);
    t.expect(
      typeof error?.code === 'string' && codes.has(error.code),
      `429 with code ${String(error?.code)}, not one of ${[...codes].join(', ')}`,
      e,
    );
    const after = error?.retry_after_seconds;
    if (
      t.expect(
        typeof after === 'number' && Number.isInteger(after) && after >= 0,
        `429 without retry_after_seconds (got ${JSON.stringify(after)})`,
        e,
      )
    )
      wait = Math.max(wait, after as number);
  }
  // The headers move the way their names say: each admitted request used one of its window's
  // requests, so Remaining falls from one to the next, and a refused one sees 0. A burst may
  // straddle a window boundary (on a fixed-window server, at any machine speed), where one value
  // is seen once per window: so the admitted requests must not all see one value, rather than
  // see no value twice.
  const { remaining } = t.spec.rateLimitHeaders;
  const left = (e: Exchange) => Number(header(e, remaining));
  const admitted = burst.filter((e) => e.status >= 200 && e.status < 300 && Number.isFinite(left(e)));
  const distinct = new Set(admitted.map(left));
  t.expect(
    admitted.length < 2 || distinct.size > 1,
    `${remaining} does not fall from one admitted request to the next: ${admitted.length} admitted requests all saw ${[...distinct].join(', ')}`,
    admitted[1],
  );
  const notZero = limited.find((e) => header(e, remaining) !== undefined && left(e) !== 0);
  t.expect(
    notZero === undefined,
    `a 429 says ${remaining} ${notZero ? header(notZero, remaining) : ''}, not 0`,
    notZero,
  );
  t.pass(`${limited.length} of ${count} answered 429`);
  // Leave the server's window as it was found before the next checks.
  await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 60) * 1000));
});
