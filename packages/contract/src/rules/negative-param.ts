// The `param` of a negative input's refusal ("param: offending parameter, when applicable"): a
// negative input breaks one thing, so a param naming another input of the request, or another
// entry of the list whose entry was broken, names the wrong one. Which form a param takes is not
// shown (ids[1], ids.1, /ids/1, the field's own name): only what no form can mean is refused.
import { isObject } from '@svc/spec-runtime';
import type { OpRequest } from '../expectations/expect.js';
import { type Exchange, errorOf } from '../http/exchange.js';
import type { Problem } from './harness.js';
import { deepEqual } from './support.js';

type Path = Array<string | number>;

/** Where `after` differs from `before`: the one value changed, or the place several changes share. */
export function brokenPath(before: unknown, after: unknown, path: Path = []): Path {
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    const differing = before.flatMap((v, i) => (same(v, after[i]) ? [] : [i]));
    return differing.length === 1
      ? brokenPath(before[differing[0] as number], after[differing[0] as number], [...path, differing[0] as number])
      : path;
  }
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    const differing = keys.filter((k) => !same(before[k], after[k]));
    return differing.length === 1
      ? brokenPath(before[differing[0] as string], after[differing[0] as string], [...path, differing[0] as string])
      : path;
  }
  return path;
}

const same = (a: unknown, b: unknown) => deepEqual(a, b);

/** A param's names and indices in order (ids[1] → ids, 1; /options/0/label → options, 0, label). */
function tokens(param: string): Path {
  return param
    .split(/[.[\]/]+/)
    .filter((t) => t !== '')
    .map((t) => (/^\d+$/.test(t) ? Number(t) : t));
}

/** What is wrong with the param of a refusal of a body with one value broken at `path`, if anything. */
export function bodyParamProblem(param: string, path: Path, topLevel: readonly string[]): string | undefined {
  const named = tokens(param);
  if (named[0] === 'body') named.shift();
  const [head] = named;
  // An index into the list whose entry was broken must be that entry's (0-based, as JSON counts).
  for (const [i, step] of path.entries()) {
    if (typeof step !== 'number' || i === 0) continue;
    const list = path[i - 1];
    const at = named.findIndex((t, j) => t === list && typeof named[j + 1] === 'number');
    if (at >= 0 && named[at + 1] !== step)
      return `names entry ${String(named[at + 1])} of ${String(list)}, while entry ${step} (counted from 0) was the one broken`;
  }
  const own = path.filter((p): p is string => typeof p === 'string');
  // Another top-level field of the body than the one broken (its own name aside: a nested field may be named alone).
  if (
    typeof head === 'string' &&
    named.length === 1 &&
    topLevel.includes(head) &&
    head !== path[0] &&
    head !== own.at(-1)
  )
    return `names the body field ${head}, while ${own.join('.') || 'another field'} was the one broken`;
  return undefined;
}

/** The query or path parameter whose value differs from the baseline's, if one alone does. */
function brokenParameter(baseline: OpRequest, request: OpRequest): string | undefined {
  const all = { ...(baseline.params ?? {}), ...(baseline.query ?? {}) } as Record<string, unknown>;
  const now = { ...(request.params ?? {}), ...(request.query ?? {}) } as Record<string, unknown>;
  const differing = [...new Set([...Object.keys(all), ...Object.keys(now)])].filter((k) => !same(all[k], now[k]));
  return differing.length === 1 ? differing[0] : undefined;
}

/**
 * The refusal's param, where it has one, names the input the case broke: the same parameter (a
 * query or path parameter broken alone), the same entry of a list, no other top-level body field.
 */
export function paramProblems(exchange: Exchange, baseline: OpRequest, request: OpRequest, label: string): Problem[] {
  const param = errorOf(exchange)?.param;
  if (typeof param !== 'string' || param === '') return [];
  const parameter = brokenParameter(baseline, request);
  const sentNames = Object.keys({ ...(request.params ?? {}), ...(request.query ?? {}) });
  let why: string | undefined;
  if (parameter !== undefined && same(baseline.body, request.body)) {
    if (param !== parameter && sentNames.includes(param))
      why = `names the parameter ${param}, while ${parameter} was the one broken`;
  } else if (!same(baseline.body, request.body) && isObject(request.body ?? {})) {
    const path = brokenPath(baseline.body ?? {}, request.body ?? {});
    if (path.length > 0)
      why = bodyParamProblem(param, path, [
        ...Object.keys((baseline.body as object) ?? {}),
        ...Object.keys((request.body as object) ?? {}),
      ]);
  }
  return why ? [{ message: `${label}: error.param ${JSON.stringify(param.slice(0, 100))} ${why}`, exchange }] : [];
}
