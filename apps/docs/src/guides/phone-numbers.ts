// "Phone number format": the PhoneNumber schema (pattern, example, description), the error a
// malformed number produces, and every parameter that carries a phone number, shown as sent
// (a `+` in a path or query string travels as `%2B`).
import { catalogueEntry } from '../error-catalogue.js';
import { blocks, code, oneLine, table } from '../markdown.js';
import { exampleOf, listOperations, operationLabel, parametersOf, refName, resolve } from '../openapi.js';
import { catalogueTable } from './errors.js';
import type { GuideBuilder } from './guide.js';

const SCHEMA = 'PhoneNumber';

export const phoneNumbersGuide: GuideBuilder = ({ doc }) => {
  const schema = resolve(doc, doc.components?.schemas?.[SCHEMA]);
  if (!schema?.pattern) throw new Error(`The bundle has no components.schemas.${SCHEMA} with a pattern`);
  const errorCode = schema['x-svc-error-code'];

  const rows = listOperations(doc).flatMap((entry) =>
    parametersOf(doc, entry)
      .filter((parameter) => refName(parameter.schema) === SCHEMA || resolve(doc, parameter.schema ?? {}) === schema)
      .map((parameter) => {
        const example = String(exampleOf(doc, parameter));
        return [code(operationLabel(entry)), code(parameter.name), parameter.in, code(encodeURIComponent(example))];
      }),
  );

  return {
    id: 'phone-numbers',
    title: 'Phone number format',
    replacesSections: [],
    markdown: blocks(
      oneLine(schema.description),
      table(
        ['Pattern', 'Example', 'In a URL'],
        (schema.examples ?? []).map((example) => [
          code(schema.pattern!),
          code(String(example)),
          code(encodeURIComponent(String(example))),
        ]),
      ),
      typeof errorCode === 'string' && '## When a number is malformed',
      typeof errorCode === 'string' && catalogueTable([catalogueEntry(doc, errorCode)]),
      '## Parameters that carry a phone number',
      'The value as it appears in the URL; clients that encode path and query values (such as `@svc/api-client`) take the plain `+` form.',
      table(['Operation', 'Parameter', 'In', 'Sent as'], rows),
    ),
  };
};
