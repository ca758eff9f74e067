// "Idempotency": the contract's numbered rules, how long a response is kept (x-svc-limits), the
// headers involved, the conflict codes, and which operations take an Idempotency-Key.
import { headerNamesOf, readLimits } from '@svc/spec-runtime/walk';
import { catalogueEntry, codesOfResponse } from '../error-catalogue.js';
import { blocks, code, oneLine, table } from '../markdown.js';
import { asJson, listOperations, namedHeaders, type OperationEntry, operationLabel, parametersOf } from '../openapi.js';
import { requireSection } from './description-sections.js';
import { catalogueTable } from './errors.js';
import type { GuideBuilder } from './guide.js';

const SECTION = 'Idempotency';

export const idempotencyGuide: GuideBuilder = ({ doc, description, markers }) => {
  const ttlSeconds = readLimits(asJson(doc)).idempotencyTtlSeconds;
  const idempotencyHeaders = namedHeaders(doc).filter(({ name }) => name.toLowerCase().startsWith('idempotency-'));

  const header = headerNamesOf(asJson(doc)).idempotencyKey.toLowerCase();
  const withKey: OperationEntry[] = listOperations(doc).filter((entry) =>
    parametersOf(doc, entry).some((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === header),
  );
  // The codes of a reused key: those the operations' 409 responses can carry.
  const conflictCodes = [
    ...new Set(
      withKey.flatMap((entry) =>
        entry.operation.responses?.['409'] ? codesOfResponse(doc, entry.operation.responses['409']) : [],
      ),
    ),
  ];
  const idempotencyMarkers = markers.filter((marker) => marker.aspect === 'idempotency');

  return {
    id: 'idempotency',
    title: 'Idempotency',
    replacesSections: [SECTION],
    markdown: blocks(
      requireSection(description, SECTION),
      `A stored response is kept for ${ttlSeconds} seconds (${code('info.x-svc-limits.idempotency_ttl_seconds')}).`,
      '## Headers',
      table(
        ['Header', 'Meaning'],
        idempotencyHeaders.map(({ name, header }) => [code(name), oneLine(header.description)]),
      ),
      '## Reusing a key elsewhere',
      catalogueTable(conflictCodes.map((conflict) => catalogueEntry(doc, conflict))),
      '## Operations that take an Idempotency-Key',
      table(
        ['Operation', 'Summary'],
        withKey.map((entry) => [code(operationLabel(entry)), entry.operation.summary]),
      ),
      idempotencyMarkers.length > 0 && '## Inferred',
      idempotencyMarkers.length > 0 &&
        idempotencyMarkers.map((marker) => `- **${marker.location}**: ${oneLine(marker.text)}`).join('\n'),
    ),
  };
};
