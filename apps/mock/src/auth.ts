// Authentication and authorisation in the API's words. Prism only checks that an Authorization
// header is present; here the header must read `Api-Key <key>` (else 401 UNAUTHORIZED). With a
// keys file, an unknown key is 401 API_KEY_INVALID, a revoked one API_KEY_REVOKED, a trial one 403
// API_KEY_TRIAL_NOT_ALLOWED, and a key without any of the operation's alternative scope sets 403
// API_KEY_INSUFFICIENT_SCOPE naming what is missing. Without a keys file every well-formed key has
// every scope.
import { apiKeyOf, type Operation } from '@svc/spec-runtime';
import type { MockKey } from './keys-file.js';

export interface Refusal {
  code: string;
  message: string;
  suggestion?: string;
}

export { apiKeyOf };

export class KeyChecker {
  private readonly keys: ReadonlyMap<string, MockKey> | undefined;

  /** keys undefined: any well-formed key is accepted with every scope. */
  constructor(keys?: readonly MockKey[]) {
    this.keys = keys ? new Map(keys.map((k) => [k.key, k])) : undefined;
  }

  get checksKeys(): boolean {
    return this.keys !== undefined;
  }

  /** null when the request may proceed to validation, else the refusal to answer with. */
  check(header: string | undefined, operation: Operation): Refusal | null {
    const token = apiKeyOf(header);
    if (token === undefined) {
      return {
        code: 'UNAUTHORIZED',
        message:
          header === undefined
            ? 'Authentication required: send the key as Authorization: Api-Key <key>.'
            : 'The Authorization header is malformed: send the key as Authorization: Api-Key <key>.',
      };
    }
    if (!this.keys) return null;
    const key = this.keys.get(token);
    if (!key) return { code: 'API_KEY_INVALID', message: 'The API key is invalid or does not exist.' };
    if (key.revoked) return { code: 'API_KEY_REVOKED', message: 'The API key has been revoked.' };
    if (key.trial) return { code: 'API_KEY_TRIAL_NOT_ALLOWED', message: 'API access is not available on trial plans; an API key needs an active paid subscription.' };
    return missingScope(operation, key.scopes);
  }
}

/** Any one of the operation's alternative scope lists suffices; the message names each alternative's gap. */
export function missingScope(operation: Operation, scopes: readonly string[]): Refusal | null {
  if (operation.security.length === 0) return null;
  if (operation.security.some((required) => required.every((s) => scopes.includes(s)))) return null;
  const named = operation.security.map((required) => required.filter((s) => !scopes.includes(s)).join(' and ')).join(' or ');
  return {
    code: 'API_KEY_INSUFFICIENT_SCOPE',
    message: `This API key lacks the scope ${operation.operationId} requires: ${named}.`,
    suggestion: `Create a key with the ${named} scope in the API settings.`,
  };
}
