// A busy port's message suggests another port: one tried just now and found free, not merely the
// next number (which may be taken as well).
import { createServer } from 'node:net';

/** Whether `port` on `host` can be listened on right now (the probe is closed at once). */
export function canListen(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** The first port after `busy` (up to `tries` of them) free on `host`, or undefined. */
export async function freePortAfter(busy: number, host: string, tries = 20): Promise<number | undefined> {
  for (let port = busy + 1; port <= Math.min(busy + tries, 65535); port++) if (await canListen(port, host)) return port;
  return undefined;
}

/** What a busy port is told: one line saying so, one suggesting a port found free just now. */
export async function busyPortMessage(port: number, host: string): Promise<string> {
  const free = await freePortAfter(port, host);
  const choose =
    free === undefined
      ? '--port 0 for any free port'
      : `--port ${free} (free just now), or --port 0 for any free port; with pnpm start: pnpm start --port ${free}`;
  return (
    `svc-sandbox: port ${port} on ${host} is already in use (another sandbox still running?).\n` +
    `Stop it, or choose another port: ${choose}.\n`
  );
}
