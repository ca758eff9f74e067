// "Request ids": the contract's prose, the generated form (x-svc-limits.request_id_pattern), and
// the X-Request-Id request parameter and response header in their own words.
import { headerNamesOf, readLimits } from '@svc/spec-runtime/walk';
import { blocks, code, oneLine, table } from '../markdown.js';
import {
  asJson,
  namedHeaders,
  type OpenApiDocument,
  type Reference,
  refName,
  resolve,
  type Schema,
  schemaExample,
} from '../openapi.js';
import { requireSection } from './description-sections.js';
import type { GuideBuilder } from './guide.js';

const SECTION = 'Request ids';

/** What a string schema allows, in a few words: its pattern, else its length bounds. */
function constraintText(doc: OpenApiDocument, schemaOrRef: Schema | Reference | undefined): string {
  const schema = schemaOrRef ? resolve(doc, schemaOrRef) : {};
  if (typeof schema.pattern === 'string') return code(schema.pattern);
  const min = typeof schema.minLength === 'number' ? schema.minLength : undefined;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  if (min !== undefined && max !== undefined) return `${min} to ${max} characters`;
  if (min !== undefined) return `at least ${min} character${min === 1 ? '' : 's'}`;
  return 'any string';
}

export const requestIdsGuide: GuideBuilder = ({ doc, description, markers }) => {
  const pattern = readLimits(asJson(doc)).raw.request_id_pattern;
  if (typeof pattern !== 'string') throw new Error('info.x-svc-limits.request_id_pattern is missing');
  const name = headerNamesOf(asJson(doc)).requestId.toLowerCase();
  const requestIdHeader = namedHeaders(doc).find((header) => header.name.toLowerCase() === name);
  const requestIdParameter = Object.values(doc.components?.parameters ?? {})
    .map((parameter) => resolve(doc, parameter))
    .find((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === name);
  if (!requestIdHeader || !requestIdParameter)
    throw new Error('The bundle has no X-Request-Id header or parameter component');
  const clientIdMarkers = markers.filter(
    (marker) => marker.location === `schema ${refName(requestIdParameter.schema)}`,
  );

  return {
    id: 'request-ids',
    title: 'Request ids',
    replacesSections: [SECTION],
    markdown: blocks(
      requireSection(description, SECTION),
      table(
        ['Form', 'Rule', 'Example'],
        [
          ['generated', code(pattern), code(String(schemaExample(doc, requestIdHeader.header.schema)))],
          [
            'sent by the client',
            constraintText(doc, requestIdParameter.schema),
            code(String(schemaExample(doc, requestIdParameter.schema))),
          ],
        ],
      ),
      '## Sending your own',
      `${code(`${requestIdParameter.name}`)} request header: ${oneLine(requestIdParameter.description)}`,
      '## Reading it back',
      `${code(requestIdHeader.name)} response header: ${oneLine(requestIdHeader.header.description)}`,
      ...clientIdMarkers.map((marker) => `Not yet specified: ${oneLine(marker.text)}`),
    ),
  };
};
