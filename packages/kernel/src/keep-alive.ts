// How long an idle keep-alive connection stays open. A client that reuses connections closes an
// idle one by a timer of its own, set from the server's `Keep-Alive: timeout=N` hint (undici, behind
// Node's fetch, at N less 2 s, on a timer that may fire a second late, later still on a busy
// process). Node's server closes at the very N it advertises: a request sent on a connection idle
// that long can cross the server's close and be met by a reset (ECONNRESET) instead of an answer,
// which a loaded machine turns from a rare race into a failure. So the server advertises N and keeps
// the connection a good while longer (Node 24's `keepAliveTimeoutBuffer` does the same, by 1 s): a
// client that honours the hint closes first, and a request is never sent on a connection the server
// is closing. Idle connections stay bounded in time (and every connection ends with `close()`).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface KeepAlive {
  /** The idle time the `Keep-Alive` hint advertises, in whole seconds. */
  advertisedSeconds: number;
  /** How long the server really keeps an idle connection open, in milliseconds. */
  keptMs: number;
}

/** Node's own default hint (5 s), kept a minute past it. */
export const DEFAULT_KEEP_ALIVE: KeepAlive = { advertisedSeconds: 5, keptMs: 65_000 };

/** Makes `server` advertise `advertisedSeconds` and keep idle connections `keptMs`. */
export function keepIdleConnectionsPastTheHint(server: Server, keepAlive: KeepAlive = DEFAULT_KEEP_ALIVE): Server {
  if (keepAlive.keptMs <= keepAlive.advertisedSeconds * 1000)
    throw new RangeError('an idle connection must be kept longer than the Keep-Alive hint says');
  server.keepAliveTimeout = keepAlive.keptMs;
  // A Keep-Alive header of the server's own replaces the one Node derives from keepAliveTimeout.
  server.prependListener('request', (_incoming: IncomingMessage, outgoing: ServerResponse) => {
    if (outgoing.shouldKeepAlive) outgoing.setHeader('Keep-Alive', `timeout=${keepAlive.advertisedSeconds}`);
  });
  return server;
}
