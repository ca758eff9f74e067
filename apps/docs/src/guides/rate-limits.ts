// "Rate limits": the contract's prose, the per-second budgets and every other numeric limit from
// info.x-svc-limits, the X-RateLimit-* headers (their own descriptions) and the 429 codes.
import { headerNamesOf, readLimits } from '@svc/spec-runtime/walk';
import { errorCatalogue } from '../error-catalogue.js';
import { blocks, bulletList, code, oneLine, table } from '../markdown.js';
import { asJson, namedHeaders } from '../openapi.js';
import { requireSection } from './description-sections.js';
import { catalogueTable } from './errors.js';
import type { GuideBuilder } from './guide.js';

const SECTION = 'Rate limits';
/** Keys the budget table presents; every other key of x-svc-limits goes to "Other limits". */
const BUDGET_KEYS = [
  'read_requests_per_second',
  'write_requests_per_second',
  'read_methods',
  'write_methods',
  'x-svc-unspecified',
];

export const rateLimitsGuide: GuideBuilder = ({ doc, description }) => {
  const limits = readLimits(asJson(doc));
  const names = headerNamesOf(asJson(doc));
  const rateLimitNames = new Set([names.rateLimitLimit, names.rateLimitRemaining, names.rateLimitReset]);
  const rateLimitHeaders = namedHeaders(doc).filter(({ name }) => rateLimitNames.has(name));
  const unspecified = (limits.raw['x-svc-unspecified'] ?? []) as string[];
  const otherLimits = Object.entries(limits.raw).filter(([key]) => !BUDGET_KEYS.includes(key));

  return {
    id: 'rate-limits',
    title: 'Rate limits',
    replacesSections: [SECTION],
    markdown: blocks(
      requireSection(description, SECTION),
      '## Budgets',
      table(
        ['Class', 'Methods', 'Requests per second'],
        [
          ['reads', limits.readMethods.join(', '), limits.readRequestsPerSecond],
          ['writes', limits.writeMethods.join(', '), limits.writeRequestsPerSecond],
        ],
      ),
      '## Headers',
      table(
        ['Header', 'Meaning'],
        rateLimitHeaders.map(({ name, header }) => [code(name), oneLine(header.description)]),
      ),
      '## Past the limit',
      catalogueTable(errorCatalogue(doc).filter((entry) => entry.status === 429)),
      '## Other limits',
      'Every other limit of `info.x-svc-limits`, as the contract names it.',
      table(
        ['Limit', 'Value'],
        otherLimits.map(([key, value]) => [code(key), Array.isArray(value) ? value.join(', ') : String(value)]),
      ),
      unspecified.length > 0 && '## Not yet specified',
      unspecified.length > 0 && bulletList(unspecified.map(oneLine)),
    ),
  };
};
