// Mutants of what a refusal says beside its code: the next step a code's meaning gives (the
// suggestion, where one is given) and the request id of a refusal made by an early layer (the media
// type). Each is the sandbox broken in one way the description states, caught by name.
import { afterAll, describe } from 'vitest';
import {
  itCatchesEachByName,
  itPassesEachAgainstTheSandbox,
  type Mutant,
  removeOutputs,
  withHeader,
} from './support/mutants.js';
import { errorIn, json, type Mutation } from './support/servers.js';

afterAll(removeOutputs);

/** A server whose refusals of one code carry another suggestion. */
const suggesting = (code: string, suggestion: string): Mutation => ({
  response: (r) =>
    r.status >= 400
      ? json(r, (b) => {
          const error = errorIn(b);
          if (error?.code === code) error.suggestion = suggestion;
        })
      : r,
});

/** A server whose media-type guard answers before the request id is read: a 415 carries an id of its own. */
const mediaTypeGuardFirst: Mutation = {
  response: (r) =>
    r.status === 415
      ? withHeader(
          json(r, (b) => {
            const error = errorIn(b);
            if (error) error.request_id = 'req_A1b2C3d4E5f6';
          }),
          'x-request-id',
          'req_A1b2C3d4E5f6',
        )
      : r,
};

const NEXT_STEPS: Mutant[] = [
  {
    name: 'tells a key refused on a line to see the request log, not to list its lines',
    caughtBy: 'response.error-details',
    only: ['auth.line-forbidden'],
    mutation: suggesting('SVC_NUMBER_FORBIDDEN', 'See the request log for details.'),
  },
  {
    name: 'tells a request with no key to send a Bearer token',
    caughtBy: 'response.error-details',
    only: ['auth.malformed-header'],
    mutation: suggesting('UNAUTHORIZED', 'Send the key as `Authorization: Bearer <key>`.'),
  },
  {
    name: 'answers an unsupported media type with a request id of its own, not the one sent',
    caughtBy: 'response.request-id',
    only: ['negative.content-type'],
    allowWrites: true,
    mutation: mediaTypeGuardFirst,
  },
];

describe('mutants of what a refusal says beside its code', () => {
  itCatchesEachByName(NEXT_STEPS);
  itPassesEachAgainstTheSandbox(NEXT_STEPS, { allowWrites: true });
});
