// Runs named steps in order, each handed the request's exchange and `next` (the rest of the
// list), as Hono composes middleware: a step answers by returning, passes on by returning
// `next()`, and may act on what the later steps answered (idempotency stores it). A step's
// result may be a promise (see maybe.ts); the last step must answer.
import type { Maybe } from './maybe.js';

export type Next<R> = () => Maybe<R>;

export interface Step<C, R> {
  /** What the step does, in a few words (the pipeline's order is tested by these names). */
  readonly name: string;
  run(context: C, next: Next<R>): Maybe<R>;
}

export function compose<C, R>(steps: readonly Step<C, R>[]): (context: C) => Maybe<R> {
  return (context) => {
    const dispatch = (index: number): Maybe<R> => {
      const step = steps[index];
      if (step === undefined) throw new Error('The last step of a pipeline must answer.');
      return step.run(context, () => dispatch(index + 1));
    };
    return dispatch(0);
  };
}
