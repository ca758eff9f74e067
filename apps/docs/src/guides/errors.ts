// "Errors": the contract's own prose on errors, the error body's fields, the error types with
// their statuses, the API-wide rules and the full catalogue grouped by HTTP status — every code
// with its type, meaning, suggestion and retryability, read from the ErrorCode schema.
import { STATUS_CODES } from 'node:http';
import { REQUESTS_PATH } from '@svc/spec-runtime/sandbox-config';
import { readStatusesOfType } from '@svc/spec-runtime/walk';
import { CALLOUT_LEADS, callout } from '../callouts.js';
import { type CatalogueEntry, errorAnchor, errorCatalogue } from '../error-catalogue.js';
import { blocks, code, oneLine, table } from '../markdown.js';
import { asJson, namedComponent, type Schema } from '../openapi.js';
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
      // Each code links to its own section of the Errors guide, the target of its doc_url.
      `[${code(entry.code)}](${errorAnchor(entry.code)})`,
      code(entry.type),
      [
        oneLine(entry.description),
        entry.suggestion && `**Suggestion:** ${oneLine(entry.suggestion)}`,
        entry.apiWide && '*API-wide rule.*',
        entry.unspecified && `*${CALLOUT_LEADS['x-svc-unspecified']}:* ${oneLine(entry.unspecified)}`,
        entry.inferred && `*${CALLOUT_LEADS['x-svc-inferred']}:* ${oneLine(entry.inferred)}`,
      ]
        .filter(Boolean)
        .join(' '),
      entry.retryable === undefined ? '' : entry.retryable ? 'yes' : 'no',
    ]),
  );
}

/**
 * One code's own section (a `###` heading, which Redoc routes as `#/guide-errors/<code>`): its
 * type, HTTP status, retryability, meaning, suggestion and the contract's notes as callouts.
 */
export function codeSection(entry: CatalogueEntry): string {
  const retryable =
    entry.retryable === undefined ? 'retryable: not stated' : `retryable: ${entry.retryable ? 'yes' : 'no'}`;
  return blocks(
    `### ${entry.code}`,
    `${code(entry.type)} · HTTP ${entry.status} · ${retryable}${entry.apiWide ? ' · API-wide rule' : ''}`,
    oneLine(entry.description),
    entry.suggestion && `**Suggestion:** ${oneLine(entry.suggestion)}`,
    entry.unspecified && callout('x-svc-unspecified', entry.unspecified),
    entry.inferred && callout('x-svc-inferred', entry.inferred),
  );
}

/** How a request id is looked up against the sandbox: its request log, its tail, the contract's failure lines. */
export function lookupSection(): string {
  return blocks(
    '## Looking a request up in the sandbox',
    'Every error names its request in `request_id` (the same value as the `X-Request-Id` header of the answer). Against the sandbox, that id is enough to see what the sandbox received and what it answered:',
    `- ${code(`GET ${REQUESTS_PATH}/<request_id>`)} with a sandbox key (\`Authorization: Api-Key sbx_…\`) answers the request as the sandbox received it (method, path, headers, body; the key by its name only, never the key) and its whole answer (status, error code, headers, body). Like the reset route, it answers only at the sandbox's own address and to a sandbox key on a paid plan.`,
    "- `svc-sandbox logs tail [--status 4xx] [--operation <operationId>] [--json]` runs the sandbox and prints each exchange as it answers it: time, method, path, status, error code, request id and the key's name.",
    "- Where an error has no next step of its own, the sandbox's `suggestion` names that route for its request id.",
    "- A contract run (`svc-contract`) against a sandbox started apart prints, under each failure's request id, the command that looks it up.",
    'The sandbox keeps its most recent exchanges in memory, within a bound by count and by bytes, and nothing across a restart: look a request up soon after it failed. A production server has no such route; quote the `request_id` when you ask for help.',
  );
}

export const errorsGuide: GuideBuilder = ({ doc, description }) => {
  const catalogue = errorCatalogue(doc);
  const errorBody = namedComponent<Schema>(doc, 'schemas', 'ApiError');
  const statuses = [...new Set(catalogue.map((entry) => entry.status))].sort((a, b) => a - b);
  const typeRows = [...readStatusesOfType(asJson(doc))].map(([type, typeStatuses]) => [
    code(type),
    typeStatuses.join(', '),
    catalogue.filter((entry) => entry.type === type).length,
  ]);

  const byStatus = statuses.map((status) => {
    const entries = catalogue.filter((entry) => entry.status === status);
    return blocks(`## ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd(), ...entries.map(codeSection));
  });

  return {
    id: 'errors',
    title: 'Errors',
    replacesSections: [SECTION],
    markdown: blocks(
      requireSection(description, SECTION),
      '## The error body',
      oneLine(errorBody.description),
      fieldTable(doc, errorBody),
      lookupSection(),
      '## Error types',
      table(['Type', 'HTTP status', 'Codes'], typeRows),
      '## API-wide rules',
      'These hold for every path and method and are not repeated on each operation.',
      catalogueTable(catalogue.filter((entry) => entry.apiWide)),
      `The catalogue below gives each of the ${catalogue.length} codes its own section, grouped by HTTP status: an error's \`doc_url\` leads there when the sandbox serves these docs.`,
      ...byStatus,
    ),
  };
};
