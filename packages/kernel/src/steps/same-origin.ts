// A route that acts answers only to the server itself, so that no web page the developer opens can
// drive it (a page can send a cross-origin POST of text/plain without asking first): the Host must
// be the address the server listens on (no DNS rebinding), and an Origin, when sent, its own.
// 403 FORBIDDEN otherwise. A server answered in-process (no origin) is reachable by no page.
import type { Credentials } from '../auth.js';
import type { KernelStep, Services } from '../services.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The Host values a server answers to: its own, and the other loopback names of its port when it listens on one. */
export function ownHosts(origin: string): Set<string> {
  const url = new URL(origin);
  const hosts = new Set([url.host]);
  if (LOOPBACK.has(url.hostname)) for (const name of LOOPBACK) hosts.add(`${name}:${url.port}`);
  return hosts;
}

export function sameOriginStep<K extends Credentials>(
  { refuse }: Services<K>,
  origin: () => string | undefined,
): KernelStep<K> {
  return {
    name: 'same origin',
    run(x, next) {
      const own = origin();
      if (own === undefined) return next();
      const hosts = ownHosts(own);
      const host = x.incoming.headers.get('host') ?? '';
      if (!hosts.has(host.toLowerCase()))
        return refuse(x.requestId, {
          error: 'FORBIDDEN',
          message: 'This sandbox route answers only to the address the sandbox listens on.',
        });
      const from = x.incoming.headers.get('origin');
      if (from !== null && ![...hosts].some((h) => from.toLowerCase() === `http://${h}`))
        return refuse(x.requestId, {
          error: 'FORBIDDEN',
          message: 'This sandbox route is refused to pages of another origin.',
        });
      return next();
    },
  };
}
