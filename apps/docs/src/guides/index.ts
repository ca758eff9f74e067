// The guides, in the order the navigation shows them.
import { collectMarkers } from '../markers.js';
import type { OpenApiDocument } from '../openapi.js';
import { authenticationGuide } from './authentication.js';
import { splitDescription } from './description-sections.js';
import { errorsGuide } from './errors.js';
import type { Guide, GuideBuilder } from './guide.js';
import { idempotencyGuide } from './idempotency.js';
import { notYetSpecifiedGuide } from './not-yet-specified.js';
import { paginationGuide } from './pagination.js';
import { phoneNumbersGuide } from './phone-numbers.js';
import { rateLimitsGuide } from './rate-limits.js';
import { requestIdsGuide } from './request-ids.js';
import { versioningGuide } from './versioning.js';
import { webhooksGuide } from './webhooks.js';

export { type Guide, guideTagName } from './guide.js';

export const GUIDE_BUILDERS: GuideBuilder[] = [
  authenticationGuide,
  errorsGuide,
  rateLimitsGuide,
  idempotencyGuide,
  paginationGuide,
  phoneNumbersGuide,
  requestIdsGuide,
  versioningGuide,
  webhooksGuide,
  notYetSpecifiedGuide,
];

export function buildGuides(doc: OpenApiDocument): Guide[] {
  const context = { doc, description: splitDescription(doc.info.description), markers: collectMarkers(doc) };
  return GUIDE_BUILDERS.map((build) => build(context));
}
