// A value now or later. The pipeline stays synchronous until something must wait (a body to
// read, an answer that awaits): a read whose answer is synchronous is written without the
// bookkeeping of a promise. This is the one place that tells the two apart.
export type Maybe<T> = T | Promise<T>;

/** (Not named `then`: a module exporting `then` is itself a thenable to `await import()`.)
 * `onValue(value)` now when the value is here, else once it arrives; a rejection goes to `onError`. */
export function andThen<T, U>(
  value: Maybe<T>,
  onValue: (resolved: T) => Maybe<U>,
  onError?: (error: unknown) => Maybe<U>,
): Maybe<U> {
  if (value instanceof Promise) return value.then(onValue, onError);
  return onValue(value);
}
