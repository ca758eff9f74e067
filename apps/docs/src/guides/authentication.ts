// "Authentication and scopes": the ApiKey scheme's own description, every scope with what it
// grants (x-svc-scopes), and which scope each operation needs, read from its security
// requirements (several requirements are alternatives: "either A or B").
import { readUnspecifiedOperations } from '@svc/spec-runtime/facts';
import { blocks, code, oneLine, table } from '../markdown.js';
import {
  asJson,
  listOperations,
  type OpenApiDocument,
  operationLabel,
  resolve,
  type SecurityRequirement,
} from '../openapi.js';
import type { GuideBuilder } from './guide.js';

interface ApiKeyScheme {
  name: string;
  description?: string;
  'x-svc-scopes'?: Record<string, string>;
}

/** "`A`", "`A` and `B`", "either `A` or `B`", "none". */
export function requirementText(requirements: SecurityRequirement[]): string {
  const alternatives = requirements.map((requirement) => {
    const scopes = Object.values(requirement).flat();
    return scopes.length === 0 ? 'no scope' : scopes.map(code).join(' and ');
  });
  if (alternatives.length === 0) return 'none';
  if (alternatives.length === 1) return alternatives[0]!;
  return `either ${alternatives.slice(0, -1).join(', ')} or ${alternatives.at(-1)}`;
}

function apiKeyScheme(doc: OpenApiDocument): [string, ApiKeyScheme] {
  const entry = Object.entries(doc.components?.securitySchemes ?? {}).find(
    ([, scheme]) => resolve(doc, scheme).type === 'apiKey',
  );
  if (!entry) throw new Error('The contract has no apiKey security scheme');
  return entry as unknown as [string, ApiKeyScheme];
}

export const authenticationGuide: GuideBuilder = ({ doc, markers }) => {
  const [schemeName, scheme] = apiKeyScheme(doc);
  const scopes = scheme['x-svc-scopes'] ?? {};
  const operations = listOperations(doc).map((entry) => ({
    entry,
    requirements: entry.operation.security ?? doc.security ?? [],
  }));

  const usedBy = (scope: string) =>
    operations
      .filter(({ requirements }) => requirements.some((requirement) => (requirement[schemeName] ?? []).includes(scope)))
      .map(({ entry, requirements }) => `${code(operationLabel(entry))}${requirements.length > 1 ? ' (either)' : ''}`);

  const notYetSpecified = readUnspecifiedOperations(asJson(doc));

  const scopeRows = Object.entries(scopes).map(([scope, grants]) => {
    const documented = usedBy(scope);
    const named = notYetSpecified.filter((operation) => operation.scope === scope).map((operation) => operation.name);
    const where = [...documented, ...(named.length > 0 ? [`not yet specified: ${named.join('; ')}`] : [])];
    return [code(scope), grants, where.length > 0 ? where.join(', ') : 'no operation shown'];
  });

  const operationRows = operations.map(({ entry, requirements }) => [
    code(operationLabel(entry)),
    entry.operation.summary,
    requirementText(requirements),
  ]);

  // Why a scope reads as it does: inferred scopes, and the ambiguities of operations that list
  // alternative requirements (both readings are encoded as "either").
  const withAlternatives = new Set(
    operations.filter(({ requirements }) => requirements.length > 1).map(({ entry }) => operationLabel(entry)),
  );
  const scopeMarkers = markers.filter(
    (marker) =>
      marker.area === 'operation' &&
      (marker.aspect === 'scope' || (marker.kind === 'x-svc-ambiguity' && withAlternatives.has(marker.location))),
  );

  return {
    id: 'authentication',
    title: 'Authentication and scopes',
    replacesSections: [],
    markdown: blocks(
      scheme.description?.trim(),
      '## Scopes',
      'Every scope a key can be given, what it grants and the operations that need it. "(either)" marks an operation that accepts any one of several scopes.',
      table(['Scope', 'Grants', 'Needed by'], scopeRows),
      '## Scope of each operation',
      'Several requirements are alternatives: a key holding any one of them is accepted.',
      table(['Operation', 'Summary', 'Scope'], operationRows),
      scopeMarkers.length > 0 && '## Where the scope is inferred or ambiguous',
      scopeMarkers.length > 0 &&
        scopeMarkers
          .map(
            (marker) =>
              `- **${marker.location}** (${marker.kind === 'x-svc-ambiguity' ? 'ambiguity' : 'inferred'}): ${oneLine(marker.text)}`,
          )
          .join('\n'),
    ),
  };
};
