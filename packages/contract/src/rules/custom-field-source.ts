// Which custom fields the service lets a key write: those created through the service, whose
// `source` is the service's own value (CustomField.source's example: SVC), and those whose source
// the server does not show. A field synced from an integration is read-only.
import type { CheckContext } from './harness.js';

/** The source value of fields created through the service (CustomField.source's example). */
export function ownSource(t: CheckContext): string | undefined {
  const props = t.spec.schema('CustomField')?.properties as Record<string, { examples?: unknown[] }> | undefined;
  const example = props?.source?.examples?.[0];
  return typeof example === 'string' ? example : undefined;
}

/** Whether a field of that source may be written: the service's own, or a source the server does not show. */
export function writableSource(t: CheckContext): (field: { source?: string }) => boolean {
  const own = ownSource(t);
  return (field) => field.source === undefined || field.source === own;
}
