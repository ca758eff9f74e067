// The contract's honesty markers, as a reader should see them: each `x-svc-unspecified`,
// `x-svc-ambiguity` and `x-svc-inferred` becomes a callout appended to the description of the
// object that carries it ("Not specified by the API description: …"), in the docs copy only.
// Redoc would otherwise print the raw extension name and value (`svc-unspecified: …`).
import { MARKER_KINDS, type MarkerKind } from './markers.js';

/** The readable lead of each marker kind. */
export const CALLOUT_LEADS: Record<MarkerKind, string> = {
  'x-svc-unspecified': 'Not specified by the API description',
  'x-svc-ambiguity': 'Ambiguous in the API description',
  'x-svc-inferred': 'Inferred (the API description does not name it)',
};

function sentences(value: unknown): string[] {
  if (typeof value === 'string') return [value.trim().replace(/\s*\n\s*/g, ' ')];
  if (Array.isArray(value)) return value.flatMap(sentences);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([aspect, text]) =>
      sentences(text).map((sentence) => `${aspect.replace(/_/g, ' ')}: ${sentence}`),
    );
  }
  return value === undefined || value === null ? [] : [String(value)];
}

/** The Markdown callout of one marker: a quoted paragraph with a bold lead. */
export function callout(kind: MarkerKind, value: unknown): string {
  const texts = sentences(value).filter((text) => text !== '');
  if (texts.length === 0) return '';
  return `> **${CALLOUT_LEADS[kind]}:** ${texts.join(' ')}`;
}

/**
 * Appends a callout for every marker to the description beside it, everywhere in the document
 * except inside extensions (their content is not rendered). Mutates the docs copy it is given.
 */
export function addMarkerCallouts(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) addMarkerCallouts(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const object = node as Record<string, unknown>;
  const callouts = MARKER_KINDS.filter((kind) => kind in object)
    .map((kind) => callout(kind, object[kind]))
    .filter(Boolean);
  // A `$ref` sibling's description is ignored by Redoc; those markers show where the target is rendered.
  if (callouts.length > 0 && !('$ref' in object)) {
    const description = typeof object.description === 'string' ? object.description.trimEnd() : '';
    object.description = [description, ...callouts].filter(Boolean).join('\n\n');
  }
  for (const [key, value] of Object.entries(object)) {
    if (
      !key.startsWith('x-') &&
      key !== 'example' &&
      key !== 'examples' &&
      key !== 'enum' &&
      key !== 'const' &&
      key !== 'default'
    )
      addMarkerCallouts(value);
  }
}
