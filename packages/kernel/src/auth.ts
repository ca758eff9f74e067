// Authentication (Authorization: Api-Key <key>) and authorisation (trial plan, then scopes: an
// operation lists alternative requirements and any one of them suffices), in the API's words.
// Which keys exist is the server's business (the sandbox's seed, the mock's keys file): it is
// asked through `findKey`.
import { apiKeyOf, type Operation } from '@svc/spec-runtime';

/** What the kernel needs to know about a key. */
export interface Credentials {
  readonly key: string;
  readonly scopes: readonly string[];
  readonly revoked?: boolean;
  /** Trial plans have no API access (403 API_KEY_TRIAL_NOT_ALLOWED). */
  readonly trial?: boolean;
}

export interface Refusal {
  code: string;
  message: string;
  suggestion?: string;
}

export function authenticate<K extends Credentials>(
  header: string | null,
  findKey: (token: string) => K | undefined,
): K | Refusal {
  const token = apiKeyOf(header);
  if (token === undefined) {
    return {
      code: 'UNAUTHORIZED',
      message:
        header === null
          ? 'Authentication required: send the key as Authorization: Api-Key <key>.'
          : 'The Authorization header is malformed: send the key as Authorization: Api-Key <key>.',
    };
  }
  const key = findKey(token);
  if (!key) return { code: 'API_KEY_INVALID', message: 'The API key is invalid or does not exist.' };
  if (key.revoked) return { code: 'API_KEY_REVOKED', message: 'The API key has been revoked.' };
  return key;
}

/** A trial plan has no API access: the refusal, or null for a paid plan. */
export function planRefusal(key: Credentials): Refusal | null {
  if (!key.trial) return null;
  return {
    code: 'API_KEY_TRIAL_NOT_ALLOWED',
    message: 'API access is not available on trial plans; an API key needs an active paid subscription.',
  };
}

export function authorize(operation: Operation, key: Credentials): Refusal | null {
  const plan = planRefusal(key);
  if (plan) return plan;
  if (operation.security.length === 0) return null;
  if (operation.security.some((scopes) => scopes.every((scope) => key.scopes.includes(scope)))) return null;
  const named = operation.security
    .map((scopes) => scopes.filter((s) => !key.scopes.includes(s)).join(' and '))
    .join(' or ');
  return {
    code: 'API_KEY_INSUFFICIENT_SCOPE',
    message: `This API key lacks the scope ${operation.operationId} requires: ${named}.`,
    suggestion: `Create a key with the ${named} scope in the API settings.`,
  };
}
