// Authentication (Authorization: Api-Key <key>) and authorisation (trial plan, then scopes: an
// operation lists alternative requirements and any one of them suffices).
import { apiKeyOf, type Operation } from '@svc/spec-runtime';
import type { Store } from '../store/store.js';
import type { ApiKeyRecord } from '../store/model.js';

export interface Refusal {
  code: string;
  message: string;
  suggestion?: string;
}

/** The key token of the Authorization header, or undefined when it is missing or malformed. */
export function bearerToken(headers: Headers): string | undefined {
  return apiKeyOf(headers.get('authorization'));
}

export function authenticate(headers: Headers, store: Store): ApiKeyRecord | Refusal {
  const header = headers.get('authorization');
  const token = bearerToken(headers);
  if (token === undefined) {
    return {
      code: 'UNAUTHORIZED',
      message: header === null ? 'Authentication required: send the key as Authorization: Api-Key <key>.' : 'The Authorization header is malformed: send the key as Authorization: Api-Key <key>.',
    };
  }
  const key = store.findKey(token);
  if (!key) return { code: 'API_KEY_INVALID', message: 'The API key is invalid or does not exist.' };
  if (key.revoked) return { code: 'API_KEY_REVOKED', message: 'The API key has been revoked.' };
  return key;
}

export function authorize(operation: Operation, key: ApiKeyRecord): Refusal | null {
  if (key.plan === 'TRIAL') {
    return { code: 'API_KEY_TRIAL_NOT_ALLOWED', message: 'API access is not available on trial plans; an API key needs an active paid subscription.' };
  }
  if (operation.security.length === 0) return null;
  const satisfied = operation.security.some((scopes) => scopes.every((scope) => key.scopes.includes(scope)));
  if (satisfied) return null;
  const missing = operation.security.map((scopes) => scopes.filter((s) => !key.scopes.includes(s)).join(' and '));
  const named = missing.join(' or ');
  return {
    code: 'API_KEY_INSUFFICIENT_SCOPE',
    message: `This API key lacks the scope ${operation.operationId} requires: ${named}.`,
    suggestion: `Create a key with the ${named} scope in the API settings.`,
  };
}
