// How the guides describe a schema in one short phrase ("string", "integer or null",
// "array of FieldError", "PhoneNumber") and list an object's fields.

import { code, oneLine, table } from '../markdown.js';
import { type OpenApiDocument, type Reference, refName, resolve, type Schema } from '../openapi.js';

export function typeText(doc: OpenApiDocument, schemaOrRef: Schema | Reference | undefined): string {
  if (!schemaOrRef) return 'any';
  const name = refName(schemaOrRef);
  if (name) return name;
  const schema = resolve(doc, schemaOrRef);
  if (schema.const !== undefined) return `const ${JSON.stringify(schema.const)}`;
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (schema.type === 'array') return `array of ${typeText(doc, schema.items)}`;
  if (schema.type) return schema.type;
  const members = schema.oneOf ?? schema.anyOf;
  if (members) return members.map((member) => typeText(doc, member)).join(' or ');
  if (schema.allOf?.length === 1) return typeText(doc, schema.allOf[0]);
  return 'any';
}

/**
 * The fields of an object schema with those of its allOf members (ApiError is ApiErrorFields with
 * type and code pinned to the catalogue): a later member's property replaces an earlier one's,
 * keeping the earlier description when it has none of its own.
 */
function objectFields(
  doc: OpenApiDocument,
  schemaOrRef: Schema | Reference,
): { properties: Record<string, Schema>; required: Set<string> } {
  const schema = resolve(doc, schemaOrRef);
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  for (const member of schema.allOf ?? []) {
    const fields = objectFields(doc, member);
    for (const [name, property] of Object.entries(fields.properties)) {
      const earlier = properties[name];
      properties[name] =
        earlier?.description && !property.description ? { ...property, description: earlier.description } : property;
    }
    for (const name of fields.required) required.add(name);
  }
  Object.assign(properties, schema.properties ?? {});
  for (const name of schema.required ?? []) required.add(name);
  return { properties, required };
}

/** A field table of an object schema: name, type, required, description. */
export function fieldTable(doc: OpenApiDocument, schemaOrRef: Schema | Reference): string {
  const { properties, required } = objectFields(doc, schemaOrRef);
  return table(
    ['Field', 'Type', 'Required', 'Description'],
    Object.entries(properties).map(([name, property]) => [
      code(name),
      typeText(doc, property),
      required.has(name) ? 'yes' : 'no',
      fieldDescription(doc, property),
    ]),
  );
}

/**
 * A field's own description; for a field that is a named schema without one, the first clause
 * of that schema's description (its full text is one click away in the reference).
 */
export function fieldDescription(doc: OpenApiDocument, property: Schema): string {
  if (property.description) return oneLine(property.description);
  const referenced = oneLine(resolve(doc, property).description);
  if (!refName(property)) return referenced;
  const clause = /^(.*?[.:])(\s|$)/.exec(referenced)?.[1] ?? referenced;
  return clause.replace(/[:]$/, '.');
}
