// Finds every honesty marker of the contract (x-svc-unspecified, x-svc-ambiguity,
// x-svc-inferred) and names its location the way a reader would look for it:
// "GET /v2/api/conversations › parameter search", "schema Deal › status", "error code FORBIDDEN".
import { headerNamesByComponent } from '@svc/spec-runtime';
import { HTTP_METHODS, asJson, resolve, type JsonObject, type OpenApiDocument } from './openapi.js';

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
      node.forEach((item, index) => visit(item, [...segments, index]));
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if ((MARKER_KINDS as readonly string[]).includes(key)) {
        const { area, location } = describeLocation(doc, segments, headerNames);
        for (const { aspect, text } of markerTexts(value)) {
          markers.push({ kind: key as MarkerKind, area, location, pointer: toPointer(segments), text, ...(aspect ? { aspect } : {}) });
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
    return Object.entries(value).flatMap(([aspect, text]) => markerTexts(text).map((entry) => ({ aspect, text: entry.text })));
  }
  return [{ text: String(value) }];
}

export function describeLocation(
  doc: OpenApiDocument,
  segments: Segment[],
  headerNames: ReadonlyMap<string, string> = headerNamesByComponent(asJson(doc)),
): { area: MarkerArea; location: string } {
  const [root, first, second, ...rest] = segments;
  const at = (count: number) => nodeAt(doc, segments.slice(0, count));

  if ((root === 'paths' || root === 'webhooks') && typeof first === 'string') {
    const isWebhook = root === 'webhooks';
    if (typeof second === 'string' && (HTTP_METHODS as readonly string[]).includes(second)) {
      const head = isWebhook ? `webhook ${first}` : `${second.toUpperCase()} ${first}`;
      return { area: isWebhook ? 'webhook' : 'operation', location: join(head, describeTail(doc, at(3), rest)) };
    }
    const head = isWebhook ? `webhook ${first}` : first;
    return { area: isWebhook ? 'webhook' : 'operation', location: join(head, describeTail(doc, at(2), segments.slice(2))) };
  }

  if (root === 'components' && typeof first === 'string' && typeof second === 'string') {
    const component = at(3);
    if (first === 'schemas' && second === 'ErrorCode' && rest[0] === 'x-svc-codes' && typeof rest[1] === 'string') {
      const entry = nodeAt(doc, segments.slice(0, 5)) as JsonObject | undefined;
      return { area: 'error code', location: join(`error code ${rest[1]}`, describeTail(doc, entry, rest.slice(2))) };
    }
    const tail = describeTail(doc, component, rest);
    switch (first) {
      case 'schemas':
        return { area: 'schema', location: join(`schema ${second}`, tail) };
      case 'parameters':
        return { area: 'shared component', location: join(`parameter ${String((component as JsonObject).name ?? second)} (shared, ${second})`, tail) };
      case 'headers':
        return { area: 'shared component', location: join(`header ${headerNames.get(second) ?? second}`, tail) };
      case 'responses':
        return { area: 'shared component', location: join(`response ${second} (shared)`, tail) };
      case 'securitySchemes':
        return { area: 'shared component', location: join(`security scheme ${second}`, tail) };
      default:
        return { area: 'shared component', location: join(`${first} ${second}`, tail) };
    }
  }

  if (root === 'info' && first === 'x-svc-limits') return { area: 'limits', location: join('limits (info.x-svc-limits)', segments.slice(2).join(' › ')) };
  return { area: 'other', location: segments.length === 0 ? 'document root' : segments.join(' › ') };
}

/** Names the path from an operation, schema or component down to the marked object. */
function describeTail(doc: OpenApiDocument, start: unknown, segments: Segment[]): string {
  const parts: string[] = [];
  let node: unknown = start;
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    const next = segments[index + 1];
    const child = (node as JsonObject | undefined)?.[segment as string];
    switch (segment) {
      case 'parameters': {
        const parameter = child && typeof next === 'number' ? resolveSafely(doc, (child as unknown[])[next]) : undefined;
        parts.push(`parameter ${String((parameter as JsonObject | undefined)?.name ?? next)}`);
        node = (child as unknown[] | undefined)?.[next as number];
        index++;
        continue;
      }
      case 'requestBody':
        parts.push('request body');
        break;
      case 'responses':
        parts.push(`response ${String(next)}`);
        node = (child as JsonObject | undefined)?.[next as string];
        index++;
        continue;
      case 'headers':
        parts.push(`header ${String(next)}`);
        node = (child as JsonObject | undefined)?.[next as string];
        index++;
        continue;
      case 'properties':
        parts.push(String(next));
        node = (child as JsonObject | undefined)?.[next as string];
        index++;
        continue;
      case 'content':
        // application/json is the only media type of this API: naming it adds nothing.
        if (next !== 'application/json') parts.push(String(next));
        node = (child as JsonObject | undefined)?.[next as string];
        index++;
        continue;
      case 'items':
        parts.push('items');
        break;
      case 'allOf':
      case 'oneOf':
      case 'anyOf':
        // A member's index means nothing to a reader; the property path after it does.
        node = (child as unknown[] | undefined)?.[next as number];
        index++;
        continue;
      case 'schema':
        break;
      default:
        parts.push(String(segment));
    }
    node = child;
  }
  return parts.join(' › ');
}

function nodeAt(doc: OpenApiDocument, segments: Segment[]): unknown {
  return segments.reduce<unknown>((node, key) => (node as JsonObject | undefined)?.[key as string], doc);
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

function toPointer(segments: Segment[]): string {
  return `#/${segments.map((segment) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}
