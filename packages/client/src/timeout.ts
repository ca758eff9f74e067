/** A timer handle as Node and Bun return it; elsewhere (Deno, browsers) a number, without these. */
export type TimerHandle = ReturnType<typeof setTimeout> & { ref?: () => unknown; unref?: () => unknown };

/**
 * One timer for every attempt of a client. A timer per attempt (`setTimeout` then `clearTimeout`)
 * costs microseconds a call on Node 20: each clear empties the runtime's list for that duration
 * and the next call builds it again. Here each attempt only joins and leaves a set; the one timer
 * is armed for the earliest deadline, re-armed when it fires, and stays armed while attempts come
 * and go, so with a fixed timeout it is set about once per timeout. So that it never keeps a
 * process alive by itself, it is unref'd while no attempt is pending (where the runtime cannot
 * unref a timer, it is cleared instead, as a per-attempt timer would be).
 */
export class DeadlineClock {
  private readonly pending = new Set<AttemptClock>();
  private handle: TimerHandle | undefined;
  private armedAt = Number.POSITIVE_INFINITY;

  /** Starts the clock of one attempt: it aborts its signal `timeoutMs` from now (0 or not finite: never). */
  start(callerSignal: AbortSignal | undefined, timeoutMs: number): AttemptClock {
    const timer = new AttemptClock(this, callerSignal, timeoutMs);
    if (!(timeoutMs > 0 && Number.isFinite(timeoutMs))) return timer;
    this.pending.add(timer);
    if (timer.deadline < this.armedAt) this.arm(timer.deadline);
    else if (this.pending.size === 1) this.handle?.ref?.();
    return timer;
  }

  /** An attempt is over (answered, failed or expired): it leaves the set. */
  finish(timer: AttemptClock): void {
    if (!this.pending.delete(timer) || this.pending.size > 0) return;
    if (this.handle?.unref) this.handle.unref();
    else this.disarm();
  }

  private arm(at: number): void {
    this.disarm();
    this.armedAt = at;
    this.handle = setTimeout(() => this.expire(), Math.max(0, at - Date.now())) as TimerHandle;
  }

  private disarm(): void {
    clearTimeout(this.handle);
    this.handle = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
  }

  /** The timer fired: end every attempt whose time is up, then wait for the next deadline. */
  private expire(): void {
    this.handle = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const timer of this.pending) {
      if (timer.deadline <= now) timer.expire();
      else next = Math.min(next, timer.deadline);
    }
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  }
}

/**
 * The clock of one attempt: its time limit, merged with the caller's signal. An AbortController (rather than `AbortSignal.timeout`) so that the
 * abort reason is ours: a `TimeoutError` we can tell apart from the caller's `AbortError`. The
 * caller's signal is followed with this object as its listener (`handleEvent`) rather than
 * `AbortSignal.any`, which costs several microseconds per call on Node 20.
 */
export class AttemptClock {
  private readonly controller = new AbortController();
  readonly deadline: number;
  /** Whether the time limit (not the caller) ended the attempt. */
  timedOut = false;

  constructor(
    private readonly clock: DeadlineClock,
    private readonly callerSignal: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    this.deadline = Date.now() + timeoutMs;
    if (callerSignal?.aborted) this.handleEvent();
    else callerSignal?.addEventListener('abort', this, { once: true });
  }

  /** Aborts when the caller aborts or when the time is up, whichever comes first. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The caller aborted. */
  handleEvent(): void {
    this.controller.abort(this.callerSignal?.reason);
  }

  expire(): void {
    this.timedOut = true;
    this.clock.finish(this);
    this.controller.abort(new DOMException(`The request timed out after ${this.timeoutMs} ms`, 'TimeoutError'));
  }

  /** Stops the clock; call it once the attempt's response body has been read or abandoned. */
  clear(): void {
    this.clock.finish(this);
    this.callerSignal?.removeEventListener('abort', this);
  }
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
