// svc-openapi-schema: the whole RESOLVED document is valid against the OpenAPI 3.1 schema.
// It runs spectral:oas's own oas3-schema function, but on the resolved document: oas3-schema itself
// reads only the root file (resolved: false), so it never sees paths/* or components/*, and its 3.1
// schema rejects the root's `{ $ref }` path items ("must not have unevaluated properties",
// stoplightio/spectral#2655).
import { createRulesetFunction } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';

const oasDocumentSchema = oas.rules['oas3-schema'].then.function;

export default createRulesetFunction({ input: null, options: null }, function svcOpenApiSchema(doc, _options, context) {
  return oasDocumentSchema(doc, null, context);
});
