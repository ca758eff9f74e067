// A run leaves what it found as it found it, wherever the API can undo a change. Before the first
// write to something the run did not create, the client asks the ledger to read it as found
// (undo/found-state.ts says how, per operation); the inverse is kept here. At the end of the run
// the ledger is played back in reverse, whatever the checks did: a check that failed, a rule that
// threw half-way, a server that answered garbage. A checked-in state that was already put back by
// its check costs one read; a failed undo is reported as a failure of the check whose write it
// undoes, never thrown.
import { API_WIDE } from './catalogue.js';
import type { ApiRequest, Exchange } from './http/exchange.js';

/** One thing the run may have changed, and how to put it back. */
export interface Undo {
  /** What was found ("the label, description and options of custom field priority"), for the report. */
  what: string;
  /** Reads it again and, where it differs from what was found, writes it back: the problems met. */
  putBack: () => Promise<UndoProblem[]>;
}

export interface UndoProblem {
  message: string;
  exchange?: Exchange;
}

/** How to read one write's target as found, before the run changes it. */
export interface FoundState {
  /** One per thing (a field, a line's receptionist, a conversation): it is read once, before its first write. */
  key: string;
  /** Reads it and returns its undo; undefined when there is nothing to put back (no such thing). */
  read: () => Promise<Undo | undefined>;
}

/** The check that is running: a failed undo is its failure. */
export interface WriteOwner {
  check: string;
  operationId: string;
}

export interface UndoFailure extends UndoProblem, WriteOwner {}

export class UndoLedger {
  private readonly entries: Array<{ undo: Undo; owner: WriteOwner }> = [];
  private readonly seen = new Set<string>();
  private owner: WriteOwner | undefined;
  private playing = false;

  constructor(private readonly foundStateOf: (request: ApiRequest) => FoundState | undefined) {}

  /** The runner names the check whose writes follow. */
  during(owner: WriteOwner): void {
    this.owner = owner;
  }

  /** How many undos are registered (what a playback will read again). */
  get size(): number {
    return this.entries.length;
  }

  /** Before a write: the first one to a thing reads it as found and keeps its inverse. */
  async beforeWrite(request: ApiRequest): Promise<void> {
    if (this.playing) return;
    const found = this.foundStateOf(request);
    // Marked before reading, so that a read that is itself a write (an empty update) does not recurse.
    if (!found || this.seen.has(found.key)) return;
    this.seen.add(found.key);
    const undo = await found.read();
    const owner = this.owner ?? { check: 'suite.error', operationId: API_WIDE };
    if (undo) this.entries.push({ undo, owner });
  }

  /** Puts back, newest first, everything registered; what could not be put back is returned, never thrown. */
  async playBack(): Promise<UndoFailure[]> {
    this.playing = true;
    const failures: UndoFailure[] = [];
    try {
      for (const { undo, owner } of this.entries.toReversed()) {
        try {
          for (const problem of await undo.putBack()) failures.push({ ...owner, ...problem });
        } catch (error) {
          failures.push({ ...owner, message: `${undo.what} was not put back: ${(error as Error).message ?? error}` });
        }
      }
    } finally {
      this.entries.length = 0;
      this.playing = false;
    }
    return failures;
  }
}
