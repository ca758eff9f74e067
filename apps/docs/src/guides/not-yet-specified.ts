// "Not yet specified": everything the description leaves open, generated from the contract's
// markers — the operations named without a method and path (info.x-svc-unspecified-operations),
// then every x-svc-ambiguity, x-svc-unspecified and x-svc-inferred with its location and text.
import { readUnspecifiedOperations, type UnspecifiedOperation } from '@svc/spec-runtime/facts';
import { blocks, bulletList, code, oneLine } from '../markdown.js';
import type { Marker, MarkerArea, MarkerKind } from '../markers.js';
import { asJson } from '../openapi.js';
import { requireSection } from './description-sections.js';
import type { GuideBuilder } from './guide.js';

const SECTION = 'What this contract leaves open';

const KIND_SECTIONS: { kind: MarkerKind; heading: string; intro: string }[] = [
  {
    kind: 'x-svc-ambiguity',
    heading: 'Ambiguities',
    intro: 'Where the description contradicts itself; the contract accepts every reading.',
  },
  {
    kind: 'x-svc-unspecified',
    heading: 'Not shown by the description',
    intro: 'Shapes, values and behaviours the description does not show; the schemas stay open there.',
  },
  {
    kind: 'x-svc-inferred',
    heading: 'Inferred names and rules',
    intro: 'Names and rules the contract had to choose.',
  },
];

const AREA_ORDER: MarkerArea[] = [
  'operation',
  'webhook',
  'error code',
  'schema',
  'shared component',
  'limits',
  'other',
];
const AREA_HEADINGS: Record<MarkerArea, string> = {
  operation: 'Operations',
  webhook: 'Webhooks',
  'error code': 'Error codes',
  schema: 'Schemas',
  'shared component': 'Shared parameters, headers and responses',
  limits: 'Limits',
  other: 'Elsewhere',
};

/** "**Send SMS** (operation, SMS) · scope `SMS_SEND` · not shown: method, path · codes: …". */
export function unspecifiedOperationItem(item: UnspecifiedOperation): string {
  return [
    `**${item.name}** (${[item.kind, item.tag].filter(Boolean).join(', ')})`,
    item.scope ? `scope ${code(item.scope)}` : 'scope not shown',
    `not shown: ${item.unspecified.filter((aspect) => aspect !== 'scope').join(', ')}`,
    item.error_codes?.length ? `codes: ${item.error_codes.map(code).join(', ')}` : undefined,
    item.notes ? oneLine(item.notes) : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

export function markerItem(marker: Marker): string {
  return `**${marker.location}**${marker.aspect ? ` (${marker.aspect})` : ''}: ${oneLine(marker.text)}`;
}

export const notYetSpecifiedGuide: GuideBuilder = ({ doc, description, markers }) => {
  const operations = readUnspecifiedOperations(asJson(doc));
  const sections = KIND_SECTIONS.map(({ kind, heading, intro }) => {
    const ofKind = markers.filter((marker) => marker.kind === kind);
    if (ofKind.length === 0) return undefined;
    const groups = AREA_ORDER.map((area) => {
      const inArea = ofKind.filter((marker) => marker.area === area);
      return inArea.length === 0
        ? undefined
        : blocks(`**${AREA_HEADINGS[area]}** (${inArea.length})`, bulletList(inArea.map(markerItem)));
    });
    return blocks(`## ${heading}`, `${intro} ${ofKind.length} in all.`, ...groups);
  });

  return {
    id: 'not-yet-specified',
    title: 'Not yet specified',
    replacesSections: [SECTION],
    markdown: blocks(
      requireSection(description, SECTION),
      '## Named without a method and path',
      `${operations.length} operations and events the description names without giving their method and path (or payload). No path is invented for them.`,
      bulletList(operations.map(unspecifiedOperationItem)),
      ...sections,
    ),
  };
};
