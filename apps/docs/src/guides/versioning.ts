// "Versioning": the contract's prose with the facts it rests on — the document's version, the
// path prefix every operation shares and the server the contract names.
import { blocks, code, oneLine, table } from '../markdown.js';
import type { OpenApiDocument } from '../openapi.js';
import { requireSection } from './description-sections.js';
import type { GuideBuilder } from './guide.js';

const SECTION = 'Versioning';

/** The longest run of whole path segments every path starts with (`/v2/api`). */
export function commonPathPrefix(doc: OpenApiDocument): string {
  const split = Object.keys(doc.paths ?? {}).map((path) => path.split('/').slice(1));
  const first = split[0] ?? [];
  const shared: string[] = [];
  for (const [index, segment] of first.entries()) {
    if (
      segment.startsWith('{') ||
      !split.every((segments) => segments[index] === segment && segments.length > index + 1)
    )
      break;
    shared.push(segment);
  }
  return `/${shared.join('/')}`;
}

export const versioningGuide: GuideBuilder = ({ doc, description }) => {
  const server = doc.servers?.[0];
  return {
    id: 'versioning',
    title: 'Versioning',
    replacesSections: [SECTION],
    markdown: blocks(
      requireSection(description, SECTION),
      table(
        ['Fact', 'Value'],
        [
          ['Contract version', code(doc.info.version)],
          ['Path prefix of every operation', code(commonPathPrefix(doc))],
          ['Server', server ? `${code(server.url)}: ${oneLine(server.description)}` : 'not shown'],
          ...Object.entries(server?.variables ?? {}).map(([name, variable]) => [
            `Server variable ${code(name)}`,
            `${code(String(variable.default))} (default): ${oneLine(variable.description)}`,
          ]),
        ],
      ),
    ),
  };
};
