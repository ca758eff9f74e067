// "Errors": the contract's own prose on errors, the error body's fields, the error types with
// their statuses, the API-wide rules and the full catalogue grouped by HTTP status — every code
// with its type, meaning, suggestion and retryability, read from the ErrorCode schema.
import { STATUS_CODES } from 'node:http';
import { errorCatalogue, type CatalogueEntry } from '../error-catalogue.js';
import { blocks, code, oneLine, table } from '../markdown.js';
import type { OpenApiDocument, Schema } from '../openapi.js';
import { requireSection } from './description-sections.js';
import type { GuideBuilder } from './guide.js';
import { fieldTable } from './schema-text.js';

const SECTION = 'Errors';

/**
 * Catalogue entries as a table: code, type, meaning (followed by the suggestion and the
 * contract's notes, where it gives them) and retryable (blank where the contract does not say).
 * The suggestion shares the meaning's column because most codes have none.
 */
export function catalogueTable(entries: CatalogueEntry[]): string {
  return table(
    ['Code', 'Type', 'Meaning', 'Retryable'],
    entries.map((entry) => [
      code(entry.code),
      code(entry.type),
      [
        oneLine(entry.meaning),
        entry.suggestion && `**Suggestion:** ${oneLine(entry.suggestion)}`,
        entry.apiWide && '*API-wide rule.*',
        entry.unspecified && `*Not yet specified:* ${oneLine(entry.unspecified)}`,
        entry.inferred && `*Inferred:* ${oneLine(entry.inferred)}`,
      ]
        .filter(Boolean)
        .join(' '),
      entry.retryable === undefined ? '' : entry.retryable ? 'yes' : 'no',
    ]),
  );
}

function errorBodySchema(doc: OpenApiDocument): Schema {
  const schema = doc.components?.schemas?.ApiError;
  if (!schema) throw new Error('The bundle has no components.schemas.ApiError');
  return schema;
}

export const errorsGuide: GuideBuilder = ({ doc, description }) => {
  const catalogue = errorCatalogue(doc);
  const statuses = [...new Set(catalogue.map((entry) => entry.status))].sort((a, b) => a - b);
  const statusOfType = (doc.components?.schemas?.ErrorType?.['x-svc-status-of-type'] ?? {}) as Record<string, number[]>;

  const typeRows = Object.entries(statusOfType).map(([type, typeStatuses]) => [
    code(type),
    typeStatuses.join(', '),
    catalogue.filter((entry) => entry.type === type).length,
  ]);

  const byStatus = statuses.map((status) => {
    const entries = catalogue.filter((entry) => entry.status === status);
    return blocks(`## ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd(), catalogueTable(entries));
  });

  return {
    id: 'errors',
    title: 'Errors',
    replacesSections: [SECTION],
    markdown: blocks(
      requireSection(description, SECTION),
      '## The error body',
      oneLine(errorBodySchema(doc).description),
      fieldTable(doc, errorBodySchema(doc)),
      '## Error types',
      table(['Type', 'HTTP status', 'Codes'], typeRows),
      '## API-wide rules',
      'These hold for every path and method and are not repeated on each operation.',
      catalogueTable(catalogue.filter((entry) => entry.apiWide)),
      `The catalogue below lists all ${catalogue.length} codes, grouped by HTTP status.`,
      ...byStatus,
    ),
  };
};
