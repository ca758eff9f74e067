// Answers to malformed HTTP, paced by a budget shared by every connection. Malformed HTTP carries
// no key, so no rate limit holds back a client that sends it again and again, and each one costs
// the server a connection, a 64 KiB read and an answer: a client re-sending a 100 kB request
// line as fast as it was answered (about 1,500 a second) made ordinary API calls beside it wait
// 2 to 3 times as long as on a quiet server, even with the server's own share down to that of a
// bare node:http. Paced, a client that waits for each answer sends at the budget's rate.
//
// Past the budget, a malformed request's connection stops being read (its bytes wait in the
// kernel's buffers, not in memory) and gets its answer, the same documented 400, in turn; the
// parser's errors for it meanwhile (a timeout) add nothing. Once answered, what more it sends
// closes it, as before. At most MAX_MALFORMED_WAITING connections wait; past that, one is closed
// unanswered.
import type { Socket } from 'node:net';
import type { Contract } from '@svc/spec-runtime';
import { answerClientError, canAnswerClientError } from './malformed-http.js';
import { SharedBudget } from './shared-budget.js';

/** Answers to malformed HTTP per second, all connections together (half a second of it at once). */
export const MALFORMED_ANSWERS_PER_SECOND = 100;
/** Connections waiting for their answer at most: 10 s of answers. */
export const MAX_MALFORMED_WAITING = 1000;

/** A socket as the `clientError` listener uses it (node:net's Socket is one). */
export type PacedSocket = Pick<Socket, 'writable' | 'end' | 'destroy' | 'pause' | 'resume' | 'once'>;

export function pacedClientErrors(
  contract: Contract,
  budget = new SharedBudget({ perSecond: MALFORMED_ANSWERS_PER_SECOND }),
) {
  const waiting = new WeakSet<PacedSocket>();
  return (error: { code?: string } | undefined, socket: PacedSocket): void => {
    if (waiting.has(socket)) return;
    // A connection reset, or one already answered, is closed: there is nothing to pace.
    if (!canAnswerClientError(error, socket) || budget.queued >= MAX_MALFORMED_WAITING) {
      socket.destroy();
      return;
    }
    waiting.add(socket);
    socket.pause();
    const grant = budget.take(1, 1);
    socket.once('close', grant.cancel);
    void grant.ready.then(() => {
      waiting.delete(socket);
      socket.resume();
      answerClientError(contract, error, socket);
    });
  };
}
