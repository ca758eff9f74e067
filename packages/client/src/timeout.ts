/** The time limit of one attempt, merged with the caller's signal. */
export interface AttemptTimer {
  /** Aborts when the caller aborts or when the time is up, whichever comes first. */
  readonly signal: AbortSignal;
  /** Whether the time limit (not the caller) ended the attempt. */
  readonly timedOut: boolean;
  /** Stops the clock; call it once the attempt's response body has been read or abandoned. */
  clear(): void;
}

/**
 * Starts the clock of one attempt. A plain timer plus AbortController (rather than
 * `AbortSignal.timeout`) so that it can be cleared as soon as the attempt is over and so that
 * the abort reason is ours: a `TimeoutError` we can tell apart from the caller's `AbortError`.
 * The caller's signal is followed with one listener rather than `AbortSignal.any`, which costs
 * several microseconds per call on Node 20. `timeoutMs` of 0 (or not finite) means no limit.
 */
export function startAttemptTimer(callerSignal: AbortSignal | undefined, timeoutMs: number): AttemptTimer {
  const controller = new AbortController();
  let timedOut = false;
  const followCaller = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) followCaller();
  else callerSignal?.addEventListener('abort', followCaller, { once: true });
  const handle =
    timeoutMs > 0 && Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new DOMException(`The request timed out after ${timeoutMs} ms`, 'TimeoutError'));
        }, timeoutMs)
      : undefined;
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    clear: () => {
      clearTimeout(handle);
      callerSignal?.removeEventListener('abort', followCaller);
    },
  };
}

/** Waits `ms` milliseconds; rejects with the signal's reason as soon as the caller aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
