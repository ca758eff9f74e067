// The server's answer to a valid call, as the bytes of its JSON (none for a 204), or the
// documented error it chose.
import type { Credentials } from '../auth.js';
import { isFailure } from '../call.js';
import { andThen } from '../maybe.js';
import type { KernelStep, Services } from '../services.js';

export function answerStep<K extends Credentials>({ answer, refuse }: Services<K>): KernelStep<K> {
  return {
    name: 'answer',
    run: (x) =>
      andThen(answer(x), (outcome) => {
        if (isFailure(outcome)) return refuse(x.requestId, outcome);
        return { status: outcome.status, text: outcome.body === undefined ? null : JSON.stringify(outcome.body) };
      }),
  };
}
