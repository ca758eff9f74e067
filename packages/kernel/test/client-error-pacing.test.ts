// Answers to malformed HTTP, paced by a shared budget: fake sockets and a clock the test moves,
// so nothing here depends on the machine's speed. (serve-node and the sandbox's hostile tests
// send malformed HTTP to a real server.)
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { bundledContract } from '../src/bundled-contract.js';
import { MAX_MALFORMED_WAITING, pacedClientErrors } from '../src/client-error-pacing.js';
import { SharedBudget } from '../src/shared-budget.js';
import { advance, clock, useFakeClock } from './fake-clock.js';

class FakeSocket extends EventEmitter {
  writable = true;
  paused = false;
  answers: string[] = [];
  destroyed = false;
  end(data: string) {
    this.answers.push(data);
    this.writable = false;
    return this;
  }
  destroy() {
    this.destroyed = true;
    this.writable = false;
    this.emit('close');
    return this;
  }
  pause() {
    this.paused = true;
    return this;
  }
  resume() {
    this.paused = false;
    return this;
  }
}

const overflow = { code: 'HPE_HEADER_OVERFLOW' };
useFakeClock();

/** A listener whose budget is 4 answers a second, 2 of them at once. */
function listener() {
  return pacedClientErrors(bundledContract(), new SharedBudget({ perSecond: 4, clock }));
}

function malformed(onClientError: ReturnType<typeof listener>, error: { code?: string } = overflow) {
  const socket = new FakeSocket();
  onClientError(error, socket as never);
  return socket;
}

describe('answers to malformed HTTP', () => {
  it('answers at once while the budget lasts, with the documented 400 body', async () => {
    const onClientError = listener();
    const socket = malformed(onClientError);
    await advance(0);
    expect(socket.answers).toHaveLength(1);
    expect(socket.answers[0]).toMatch(/^HTTP\/1\.1 400 /);
    expect(socket.answers[0]).toContain('"code":"INVALID_REQUEST_BODY"');
    expect(socket.paused).toBe(false);
  });

  it('past the budget, stops reading a connection and answers it in its turn', async () => {
    const onClientError = listener();
    const [first, second, third] = [malformed(onClientError), malformed(onClientError), malformed(onClientError)];
    await advance(0);
    expect([first.answers.length, second.answers.length, third.answers.length]).toEqual([1, 1, 0]);
    expect(third.paused).toBe(true);
    onClientError(overflow, third as never); // the rest of its bytes fail the parser again
    await advance(249); // one answer every 250 ms at 4 a second
    expect(third.answers).toHaveLength(0);
    await advance(1);
    expect(third.answers).toHaveLength(1);
    expect(third.paused).toBe(false);
    // Its repeated error took no second turn: the next connection's turn is the next 250 ms.
    const fourth = malformed(onClientError);
    await advance(250);
    expect([third.answers.length, fourth.answers.length]).toEqual([1, 1]);
  });

  it('closes an answered connection that sends more, as Node would', async () => {
    const onClientError = listener();
    const socket = malformed(onClientError);
    await advance(0);
    onClientError(overflow, socket as never);
    expect([socket.answers.length, socket.destroyed]).toEqual([1, true]);
  });

  it('gives the turn of a connection that closed while waiting to the next one', async () => {
    const onClientError = listener();
    malformed(onClientError);
    malformed(onClientError);
    const gone = malformed(onClientError);
    const next = malformed(onClientError);
    gone.destroy();
    await advance(250);
    expect([gone.answers.length, next.answers.length]).toEqual([0, 1]);
  });

  it('closes, unanswered, a reset connection and any past the most that may wait', async () => {
    const onClientError = listener();
    const reset = malformed(onClientError, { code: 'ECONNRESET' });
    expect([reset.destroyed, reset.answers.length]).toEqual([true, 0]);
    const sockets = Array.from({ length: 2 + MAX_MALFORMED_WAITING + 1 }, () => malformed(onClientError));
    await advance(0);
    expect(sockets.filter((s) => s.destroyed)).toHaveLength(1);
    expect(sockets.at(-1)!.destroyed).toBe(true);
  });
});
