// Matches a request's method and path to a documented operation. Templates are tried most
// specific first: at the first segment where two templates differ, a literal beats a parameter,
// so /v2/api/conversations/items/batch wins over /v2/api/conversations/{contact_number}/action
// and /v2/api/conversations/notes/{id} over /v2/api/conversations/{contact_number}/notes.
import type { Operation } from './operations.js';

type Segment = { literal: string } | { param: string };

interface CompiledTemplate {
  path: string;
  segments: Segment[];
  byMethod: Map<string, Operation>;
}

export type RouteMatch =
  | { operation: Operation; params: Record<string, string> }
  | { error: 'ENDPOINT_NOT_FOUND' }
  | { error: 'METHOD_NOT_ALLOWED'; allowed: string[] };

export class RouteMatcher {
  /** Templates by their number of segments, most specific first: a path is tried only on its own. */
  private readonly bySegmentCount = new Map<number, CompiledTemplate[]>();

  constructor(operations: readonly Operation[]) {
    const byPath = new Map<string, CompiledTemplate>();
    for (const op of operations) {
      let template = byPath.get(op.path);
      if (!template) {
        template = { path: op.path, segments: parseTemplate(op.path), byMethod: new Map() };
        byPath.set(op.path, template);
      }
      template.byMethod.set(op.method, op);
    }
    for (const template of [...byPath.values()].sort(compareSpecificity)) {
      const bucket = this.bySegmentCount.get(template.segments.length);
      if (bucket) bucket.push(template);
      else this.bySegmentCount.set(template.segments.length, [template]);
    }
  }

  match(method: string, pathname: string): RouteMatch {
    const segments = pathname.split('/');
    for (const template of this.bySegmentCount.get(segments.length) ?? []) {
      const params = matchSegments(template.segments, segments);
      if (params === null) continue;
      if (params === undefined) return { error: 'ENDPOINT_NOT_FOUND' };
      const operation = template.byMethod.get(method.toUpperCase());
      if (!operation) return { error: 'METHOD_NOT_ALLOWED', allowed: [...template.byMethod.keys()] };
      return { operation, params };
    }
    return { error: 'ENDPOINT_NOT_FOUND' };
  }
}

function parseTemplate(path: string): Segment[] {
  return path.split('/').map((s) => {
    const param = /^\{([^}]+)\}$/.exec(s);
    return param ? { param: param[1] as string } : { literal: s };
  });
}

function compareSpecificity(a: CompiledTemplate, b: CompiledTemplate): number {
  const length = Math.max(a.segments.length, b.segments.length);
  for (let i = 0; i < length; i++) {
    const sa = a.segments[i];
    const sb = b.segments[i];
    if (!sa || !sb) return a.segments.length - b.segments.length;
    const la = 'literal' in sa;
    const lb = 'literal' in sb;
    if (la !== lb) return la ? -1 : 1;
  }
  return 0;
}

/**
 * null: no match. undefined: the template matches but a parameter is not decodable (a malformed
 * percent-escape), which is answered as an unknown endpoint rather than a crash.
 */
function matchSegments(template: Segment[], actual: string[]): Record<string, string> | null | undefined {
  // Literals first: most templates of the same length differ in one, and fail without building anything.
  for (let i = 0; i < template.length; i++) {
    const expected = template[i] as Segment;
    if ('literal' in expected ? expected.literal !== actual[i] : actual[i] === '') return null;
  }
  const params: Record<string, string> = {};
  let undecodable = false;
  for (let i = 0; i < template.length; i++) {
    const expected = template[i] as Segment;
    if ('literal' in expected) continue;
    try {
      // decodeURIComponent leaves '+' alone, so a path's %2B becomes '+' and a bare '+' stays '+'.
      params[expected.param] = decodeURIComponent(actual[i] as string);
    } catch {
      undecodable = true;
    }
  }
  return undecodable ? undefined : params;
}
