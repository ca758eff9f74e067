// Finds every honesty marker of the contract (x-svc-unspecified, x-svc-ambiguity,
// x-svc-inferred) and names its location the way a reader would look for it:
// "GET /v2/api/conversations › parameter search", "schema Deal › status", "error code FORBIDDEN".
import { childPointer, getByPointer } from '@svc/spec-runtime';
import { headerNamesByComponent } from '@svc/spec-runtime/walk';
import { asJson, HTTP_METHODS, type JsonObject, type OpenApiDocument, resolve } from './openapi.js';

export const MARKER_KINDS = ['x-svc-unspecified', 'x-svc-ambiguity', 'x-svc-inferred'] as const;
export type MarkerKind = (typeof MARKER_KINDS)[number];

/** Where a marker sits, coarsely: the "Not yet specified" guide groups by it. */
export type MarkerArea = 'operation' | 'webhook' | 'error code' | 'schema' | 'shared component' | 'limits' | 'other';

export interface Marker {
  kind: MarkerKind;
  area: MarkerArea;
  /** Readable location, e.g. "GET /v2/api/conversations › parameter search". */
  location: string;
  /** JSON pointer of the object carrying the marker (for tests and debugging). */
  pointer: string;
  /** Set when the marker is a map of aspects (`{ scope: "...", idempotency: "..." }`). */
  aspect?: string;
  text: string;
}

type Segment = string | number;

export function collectMarkers(doc: OpenApiDocument): Marker[] {
  const markers: Marker[] = [];
  const headerNames = headerNamesByComponent(asJson(doc));
  const visit = (node: unknown, segments: Segment[]): void => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, [...segments, index]);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if ((MARKER_KINDS as readonly string[]).includes(key)) {
        const { area, location } = describeLocation(doc, segments, headerNames);
        for (const { aspect, text } of markerTexts(value)) {
          markers.push({
            kind: key as MarkerKind,
            area,
            location,
            pointer: childPointer('#', ...segments),
            text,
            ...(aspect ? { aspect } : {}),
          });
        }
      } else {
        visit(value, [...segments, key]);
      }
    }
  };
  visit(doc, []);
  return markers;
}

/** A marker's value is a sentence, a list of sentences, or a map from aspect to sentence. */
function markerTexts(value: unknown): { aspect?: string; text: string }[] {
  if (typeof value === 'string') return [{ text: value.trim() }];
  if (Array.isArray(value)) return value.flatMap((item) => markerTexts(item));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([aspect, text]) =>
      markerTexts(text).map((entry) => ({ aspect, text: entry.text })),
    );
  }
  return [{ text: String(value) }];
}

export function describeLocation(
  doc: OpenApiDocument,
  segments: Segment[],
  headerNames: ReadonlyMap<string, string> = headerNamesByComponent(asJson(doc)),
): { area: MarkerArea; location: string } {
  const [root, first, second, ...rest] = segments;
  const at = (count: number) => getByPointer(doc, childPointer('#', ...segments.slice(0, count)));

  if ((root === 'paths' || root === 'webhooks') && typeof first === 'string') {
    const isWebhook = root === 'webhooks';
    // Under a method, the tail starts after it; on the path item itself, after the path.
    const method =
      typeof second === 'string' && (HTTP_METHODS as readonly string[]).includes(second) ? second : undefined;
    const depth = method ? 3 : 2;
    const head = isWebhook ? `webhook ${first}` : method ? `${method.toUpperCase()} ${first}` : first;
    return {
      area: isWebhook ? 'webhook' : 'operation',
      location: join(head, describeTail(doc, at(depth), segments.slice(depth))),
    };
  }

  if (root === 'components' && typeof first === 'string' && typeof second === 'string') {
    const component = at(3);
    if (first === 'schemas' && second === 'ErrorCode' && rest[0] === 'x-svc-codes' && typeof rest[1] === 'string') {
      return { area: 'error code', location: join(`error code ${rest[1]}`, describeTail(doc, at(5), rest.slice(2))) };
    }
    const heads = new Map([
      ['schemas', `schema ${second}`],
      ['parameters', `parameter ${String((component as JsonObject | undefined)?.name ?? second)} (shared, ${second})`],
      ['headers', `header ${headerNames.get(second) ?? second}`],
      ['responses', `response ${second} (shared)`],
      ['securitySchemes', `security scheme ${second}`],
    ]);
    const head = heads.get(first) ?? `${first} ${second}`;
    return {
      area: first === 'schemas' ? 'schema' : 'shared component',
      location: join(head, describeTail(doc, component, rest)),
    };
  }

  if (root === 'info' && first === 'x-svc-limits')
    return { area: 'limits', location: join('limits (info.x-svc-limits)', segments.slice(2).join(' › ')) };
  return { area: 'other', location: segments.length === 0 ? 'document root' : segments.join(' › ') };
}

/**
 * Segments followed by the name (or index) of one member: how the pair reads, given the member
 * and its node ('' adds nothing: application/json is the only media type of this API, and a member
 * index of allOf/oneOf/anyOf means nothing to a reader; the property path after it does).
 */
const MEMBER_LABELS: Readonly<
  Record<string, (member: Segment | undefined, node: unknown, doc: OpenApiDocument) => string>
> = {
  parameters: (member, node, doc) =>
    `parameter ${String((resolveSafely(doc, node) as JsonObject | undefined)?.name ?? member)}`,
  responses: (member) => `response ${String(member)}`,
  headers: (member) => `header ${String(member)}`,
  properties: (member) => String(member),
  content: (member) => (member === 'application/json' ? '' : String(member)),
  allOf: () => '',
  oneOf: () => '',
  anyOf: () => '',
};

/** Names the path from an operation, schema or component down to the marked object. */
function describeTail(doc: OpenApiDocument, start: unknown, segments: Segment[]): string {
  const parts: string[] = [];
  let node: unknown = start;
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    const child = (node as JsonObject | undefined)?.[segment as string];
    const label =
      typeof segment === 'string' && Object.hasOwn(MEMBER_LABELS, segment) ? MEMBER_LABELS[segment] : undefined;
    if (label) {
      // The segment and the member after it name one thing: step over both.
      const member = segments[++index];
      node = (child as JsonObject | undefined)?.[member as string];
      const text = label(member, node, doc);
      if (text) parts.push(text);
      continue;
    }
    if (segment === 'requestBody') parts.push('request body');
    else if (segment !== 'schema') parts.push(String(segment));
    node = child;
  }
  return parts.join(' › ');
}

function resolveSafely(doc: OpenApiDocument, value: unknown): unknown {
  try {
    return resolve(doc, value);
  } catch {
    return value;
  }
}

function join(head: string, tail: string): string {
  return tail ? `${head} › ${tail}` : head;
}
