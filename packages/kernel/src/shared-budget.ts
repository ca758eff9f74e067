// A budget shared by every client of something that needs no key, so that no rate limit holds
// back a client that asks for it again and again: a token bucket that refills at `perSecond` and
// holds half a second of it, so an ordinary client never waits. Past that, each asker waits its
// turn, and the turn goes to the asker with the least left to do (shortest remaining first), then
// to the one that asked first. The sandbox's /docs spends it in bytes (a page load goes before
// readers still filling their sockets with a larger file); the kernel's answers to malformed HTTP
// spend one each (see client-error-pacing.ts).
//
// A budget per connection would not do: a new connection per request gets a new budget.
import TinyQueue from 'tinyqueue';

export interface SharedBudgetOptions {
  /** What the budget refills per second (bytes, answers, ...). */
  perSecond: number;
  /** Monotonic milliseconds (performance.now unless a test injects its own). */
  clock?: () => number;
}

/** An asker's place in the queue: `ready` resolves when it may go on. */
export interface Grant {
  readonly ready: Promise<void>;
  /** The asker is gone (its client hung up): its place is given up. */
  cancel(): void;
}

interface Waiter {
  cost: number;
  left: number;
  order: number;
  /** Granted or cancelled: no longer waiting. */
  done: boolean;
  grant: () => void;
}

const byLeastLeft = (a: Waiter, b: Waiter) => a.left - b.left || a.order - b.order;
const GRANTED: Grant = { ready: Promise.resolve(), cancel() {} };

export class SharedBudget {
  private readonly rate: number; // per millisecond
  private readonly burst: number;
  private readonly clock: () => number;
  private tokens: number;
  private refilledAt: number;
  private waiting = new TinyQueue<Waiter>([], byLeastLeft);
  private cancelled = 0; // cancelled waiters still in the queue
  private arrivals = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerDue = 0;

  constructor({ perSecond, clock = () => performance.now() }: SharedBudgetOptions) {
    if (!(perSecond > 0)) throw new RangeError(`perSecond must be positive, got ${perSecond}`);
    this.rate = perSecond / 1000;
    this.burst = perSecond / 2;
    this.clock = clock;
    this.tokens = this.burst;
    this.refilledAt = clock();
  }

  /** Askers waiting, those that hung up and are not yet dropped included. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Asks for `amount` by an asker that has `left` to do, this amount included. */
  take(amount: number, left: number): Grant {
    // An amount larger than the burst costs the whole burst, so that it is not refused for ever.
    const waiter: Waiter = {
      cost: Math.min(amount, this.burst),
      left,
      order: this.arrivals++,
      done: false,
      grant: () => {},
    };
    this.refill();
    const head = this.head();
    if ((head === undefined || byLeastLeft(waiter, head) < 0) && this.tokens >= waiter.cost) {
      this.tokens -= waiter.cost;
      return GRANTED;
    }
    const ready = new Promise<void>((resolve) => (waiter.grant = resolve));
    this.waiting.push(waiter);
    this.schedule();
    return { ready, cancel: () => this.cancel(waiter) };
  }

  private cancel(waiter: Waiter): void {
    if (waiter.done) return;
    waiter.done = true;
    // Cancelled waiters are dropped when they reach the head, or all at once when they are half
    // the queue: a client that keeps opening reads and hanging up cannot grow it without bound.
    if (++this.cancelled * 2 > this.waiting.length) {
      this.waiting = new TinyQueue(
        this.waiting.data.filter((w) => !w.done),
        byLeastLeft,
      );
      this.cancelled = 0;
    }
  }

  private refill(): void {
    const now = this.clock();
    this.tokens = Math.min(this.burst, this.tokens + (now - this.refilledAt) * this.rate);
    this.refilledAt = now;
  }

  /** The first waiter still waiting (those that hung up are dropped on the way). */
  private head(): Waiter | undefined {
    let head = this.waiting.peek();
    while (head?.done) {
      this.waiting.pop();
      this.cancelled--;
      head = this.waiting.peek();
    }
    return head;
  }

  private release = (): void => {
    this.timer = undefined;
    this.refill();
    for (let head = this.head(); head !== undefined && this.tokens >= head.cost; head = this.head()) {
      this.tokens -= head.cost;
      this.waiting.pop();
      head.done = true;
      head.grant();
    }
    this.schedule();
  };

  /** One timer, for when the head of the queue can be served (earlier if a new head needs less). */
  private schedule(): void {
    const head = this.head();
    if (head === undefined) return;
    const wait = Math.max(1, Math.ceil((head.cost - this.tokens) / this.rate));
    if (this.timer !== undefined && this.timerDue <= this.refilledAt + wait) return;
    clearTimeout(this.timer);
    this.timerDue = this.refilledAt + wait;
    this.timer = setTimeout(this.release, wait);
  }
}
