// Runs named steps in order, each handed the request's exchange and `next` (the rest of the
// list), as Hono composes middleware: a step answers by returning, passes on by returning
// `next()`, and may act on what the later steps answered (idempotency stores it). A step's
// result may be a promise (see maybe.ts); the last step must answer. A step that calls `next()`
// a second time would run the rest of the pipeline twice (answer twice, store twice): that is a
// bug, refused with a named error, as Hono's compose refuses it.
import type { Maybe } from './maybe.js';

/** A step called `next()` more than once. */
export class NextCalledTwiceError extends Error {
  override name = 'NextCalledTwiceError';
  constructor(step: string) {
    super(`The step "${step}" called next() more than once.`);
  }
}

export type Next<R> = () => Maybe<R>;

export interface Step<C, R> {
  /** What the step does, in a few words (the pipeline's order is tested by these names). */
  readonly name: string;
  run(context: C, next: Next<R>): Maybe<R>;
}

export function compose<C, R>(steps: readonly Step<C, R>[]): (context: C) => Maybe<R> {
  return (context) => {
    // The furthest step reached: a `next()` that would go back to it or before is a second call.
    let reached = -1;
    const dispatch = (index: number): Maybe<R> => {
      if (index <= reached) throw new NextCalledTwiceError(steps[index - 1]?.name ?? 'unknown');
      reached = index;
      const step = steps[index];
      if (step === undefined) throw new Error('The last step of a pipeline must answer.');
      return step.run(context, () => dispatch(index + 1));
    };
    return dispatch(0);
  };
}
