// What Prism's validating proxy reports that is not the sandbox's to fix, by name and with the
// reason. prism-proxy.test.ts fails on any violation no entry explains, and on an entry that no
// longer explains anything (so an entry cannot outlive its reason).
import type { Failure } from '../src/report/model.js';

/** One violation of an answer's sl-violations header, with the exchange it came with. */
export interface Reported {
  method: string;
  path: string;
  status: number;
  location: string[];
  severity: string;
  code: string | number | undefined;
  message: string;
}

export interface AllowlistEntry {
  name: string;
  reason: string;
  explains(v: Reported): boolean;
}

const isRequest = (v: Reported) => v.location[0] === 'request';

export const PRISM_ALLOWLIST: AllowlistEntry[] = [
  {
    name: 'invalid-request-refused',
    reason:
      'Not a limit but agreement: the suite sends invalid requests on purpose (a rule broken alone, no or a ' +
      'malformed key, a wrong media type); Prism reports the request violation and the sandbox refuses the ' +
      'request with a documented 4xx, whose body Prism then finds valid.',
    explains: (v) => isRequest(v) && v.severity === 'Error' && [400, 401, 404, 415].includes(v.status),
  },
  {
    name: 'prism-route-not-found',
    reason:
      'Prism matches a request to a documented method and path before anything else: for a path no operation ' +
      'has, or a method a path does not serve, it warns "Selected route not found", though the sandbox answers ' +
      'with the API-wide 404 ENDPOINT_NOT_FOUND or 405 METHOD_NOT_ALLOWED the operations list.',
    explains: (v) =>
      isRequest(v) &&
      v.severity === 'Warning' &&
      v.message === 'Selected route not found' &&
      [404, 405].includes(v.status),
  },
  {
    name: 'prism-template-route-for-unserved-method',
    reason:
      'GET /v2/api/conversations/items/search (and /batch) is served for POST only, so the sandbox answers 405; ' +
      'Prism instead matches the templated GET /v2/api/conversations/items/{id} and validates "search" as an item id.',
    explains: (v) => isRequest(v) && v.status === 405 && v.location.join('.') === 'request.path.id',
  },
];

export const allowlistEntryOf = (v: Reported) => PRISM_ALLOWLIST.find((entry) => entry.explains(v));

/**
 * The suite's own failures through Prism that Prism causes: it parses a JSON request body itself and
 * answers a malformed one with its own 400 problem (`invalid_json`), which never reaches the sandbox,
 * so that answer lacks the API's error body and headers.
 */
export function suiteFailureAllowed(failure: Failure): boolean {
  return failure.status === 400 && (failure.responseBody ?? '').includes('invalid_json');
}
