// Why a check stops without a verdict of its own: it has nothing to check here (Skip), a fixture
// it needs is missing, or it would write where the run does not allow it. A leaf: verdict.ts turns
// each into a skip with its kind, and whatever throws them needs nothing else of the runner.
import type { SkipKind } from './types.js';

/** Thrown by a check that has nothing to check here (see CheckContext.skip). */
export class Skip extends Error {
  constructor(
    message: string,
    readonly kind: SkipKind,
  ) {
    super(message);
  }
}

/** Thrown where a check needs a fixture the run has not found (a skip for want of configuration). */
export class MissingFixture extends Error {}

/** Thrown by the client for a request that would change data in a run without --allow-writes. */
export class WritesDisabledError extends Error {
  constructor(request: { method: string; path: string }) {
    super(`${request.method} ${request.path} would change data; it is only sent with --allow-writes.`);
  }
}
