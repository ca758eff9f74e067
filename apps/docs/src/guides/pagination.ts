// "Pagination": the paging block's fields (the Pagination schema), the page and size parameters
// with their limits, the list operations that take them, and what the contract leaves open or
// reads two ways about paging.
import { catalogueEntry } from '../error-catalogue.js';
import { blocks, bulletList, code, oneLine, table } from '../markdown.js';
import {
  listOperations,
  namedComponent,
  type OpenApiDocument,
  type OperationEntry,
  operationLabel,
  type Parameter,
  parametersOf,
  refName,
  resolve,
  type Schema,
} from '../openapi.js';
import { catalogueTable } from './errors.js';
import type { GuideBuilder } from './guide.js';
import { fieldTable } from './schema-text.js';

/** The schema name of the `pagination` block in an operation's 200 response. */
function paginationSchemaOf(doc: OpenApiDocument, entry: OperationEntry): string | undefined {
  const ok = entry.operation.responses?.['200'];
  if (!ok) return undefined;
  const body = resolve(doc, ok).content?.['application/json']?.schema;
  const pagination = body ? resolve(doc, body).properties?.pagination : undefined;
  return refName(pagination);
}

function range(schema: Schema | undefined): string {
  if (!schema) return '';
  if (schema.minimum !== undefined && schema.maximum !== undefined) return `${schema.minimum} to ${schema.maximum}`;
  if (schema.minimum !== undefined) return `at least ${schema.minimum}`;
  return '';
}

export const paginationGuide: GuideBuilder = ({ doc, markers }) => {
  const pagination = namedComponent<Schema>(doc, 'schemas', 'Pagination');
  const paging = ['PageParameter', 'SizeParameter'].map((name) => namedComponent<Parameter>(doc, 'parameters', name));
  const pagingNames = new Set(paging.map((parameter) => parameter.name));

  const lists = listOperations(doc).filter((entry) =>
    parametersOf(doc, entry).some((parameter) => parameter.in === 'query' && pagingNames.has(parameter.name)),
  );
  const pagingCodes = [
    ...new Set(
      paging
        .map((parameter) => resolve(doc, parameter.schema ?? {})['x-svc-error-code'])
        .filter((c): c is string => typeof c === 'string'),
    ),
  ];
  const blockSchemas = new Set(
    lists.map((entry) => paginationSchemaOf(doc, entry)).filter((name): name is string => Boolean(name)),
  );
  const pagingMarkers = markers.filter(
    (marker) =>
      [...blockSchemas].some((name) => marker.location === `schema ${name}`) ||
      paging.some((parameter) => marker.location.startsWith(`parameter ${parameter.name} (shared`)),
  );

  return {
    id: 'pagination',
    title: 'Pagination',
    replacesSections: [],
    markdown: blocks(
      oneLine(pagination.description),
      'Ask for a page with the query parameters below; the answer carries the page in its `pagination` block.',
      '## Parameters',
      table(
        ['Parameter', 'Range', 'Description'],
        paging.map((parameter) => [
          code(parameter.name),
          range(resolve(doc, parameter.schema ?? {})),
          oneLine(parameter.description),
        ]),
      ),
      catalogueTable(pagingCodes.map((pagingCode) => catalogueEntry(doc, pagingCode))),
      '## The pagination block',
      fieldTable(doc, pagination),
      '## Paged operations',
      table(
        ['Operation', 'Summary', 'Pagination block'],
        lists.map((entry) => [
          code(operationLabel(entry)),
          entry.operation.summary,
          paginationSchemaOf(doc, entry) ?? 'not shown',
        ]),
      ),
      pagingMarkers.length > 0 && '## Open questions',
      pagingMarkers.length > 0 &&
        bulletList(pagingMarkers.map((marker) => `**${marker.location}**: ${oneLine(marker.text)}`)),
    ),
  };
};
