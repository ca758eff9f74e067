// A byte budget shared by every /docs response, so that reading the reference cannot take the
// sandbox's one thread from the API. /docs needs no key, so no per-key rate limit holds it back:
// one client re-reading the 0.66 MB page as fast as it can copied about 350 MB/s over loopback,
// and ordinary API calls beside it waited 2 to 4 times as long as on a quiet sandbox. A budget
// per connection would not help (a new connection per read gets a new budget); one token bucket
// for all of /docs does. It refills at `bytesPerSecond` and holds half a second of it, so a
// person loading the page on a quiet sandbox never waits.
//
// Who goes first when the budget is spent: the response with the fewest bytes left to send
// (shortest remaining first), not the one that asked first nor the one sent least so far. The
// readers of a large file ask chunk after chunk until their sockets fill: in arrival order, 200
// of them filling their sockets with the 3 MB page queued a new reader of the 0.66 MB brotli page
// behind them (over 2 s); shared equally, it got a 201st of the budget (6.7 s). Served by what is
// left, it goes before every one of them, and each response that starts is soon finished.
import TinyQueue from 'tinyqueue';

export interface EgressOptions {
  /** Bytes per second that /docs may send in all. */
  bytesPerSecond: number;
  /** Monotonic milliseconds (performance.now unless a test injects its own). */
  clock?: () => number;
}

/** A response's place in the queue: `ready` resolves when its bytes may be sent. */
export interface Grant {
  readonly ready: Promise<void>;
  /** The response is gone (its client hung up): its place is given up. */
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

const byFewestBytesLeft = (a: Waiter, b: Waiter) => a.left - b.left || a.order - b.order;
const GRANTED: Grant = { ready: Promise.resolve(), cancel() {} };

export class EgressBudget {
  private readonly rate: number; // bytes per millisecond
  private readonly burst: number;
  private readonly clock: () => number;
  private tokens: number;
  private refilledAt: number;
  private waiting = new TinyQueue<Waiter>([], byFewestBytesLeft);
  private cancelled = 0; // cancelled waiters still in the queue
  private arrivals = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerDue = 0;

  constructor({ bytesPerSecond, clock = () => performance.now() }: EgressOptions) {
    if (!(bytesPerSecond > 0)) throw new RangeError(`bytesPerSecond must be positive, got ${bytesPerSecond}`);
    this.rate = bytesPerSecond / 1000;
    this.burst = bytesPerSecond / 2;
    this.clock = clock;
    this.tokens = this.burst;
    this.refilledAt = clock();
  }

  /** Waiting responses, those that hung up and are not yet dropped included. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Asks to send the next `bytes` of a response that has `left` bytes to send, these included. */
  take(bytes: number, left: number): Grant {
    // A chunk larger than the burst costs the whole burst, so that it is not refused for ever.
    const waiter: Waiter = { cost: Math.min(bytes, this.burst), left, order: this.arrivals++, done: false, grant: () => {} };
    this.refill();
    const head = this.head();
    if ((head === undefined || byFewestBytesLeft(waiter, head) < 0) && this.tokens >= waiter.cost) {
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
      this.waiting = new TinyQueue(this.waiting.data.filter((w) => !w.done), byFewestBytesLeft);
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
