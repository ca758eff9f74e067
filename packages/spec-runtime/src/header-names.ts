// The wire name of each header component (`RateLimitLimitHeader` → `X-RateLimit-Limit`): the
// bundle keys response headers by name and points at the component, so the name is read from
// where responses use it, never typed again.
import { isObject, type JsonObject } from './json-pointer.js';

const HEADER_COMPONENT = '#/components/headers/';

/** Header component name → the header's name on the wire, from the operations' and components' responses. */
export function headerNamesByComponent(bundle: JsonObject): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  const visit = (node: unknown): void => {
    if (!isObject(node) && !Array.isArray(node)) return;
    const headers = isObject(node) ? node.headers : undefined;
    if (isObject(headers)) {
      for (const [name, header] of Object.entries(headers)) {
        const ref = isObject(header) ? header.$ref : undefined;
        if (typeof ref !== 'string' || !ref.startsWith(HEADER_COMPONENT)) continue;
        const component = ref.slice(HEADER_COMPONENT.length);
        if (!names.has(component)) names.set(component, name);
      }
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(bundle.paths);
  visit(isObject(bundle.components) ? bundle.components.responses : undefined);
  return names;
}
