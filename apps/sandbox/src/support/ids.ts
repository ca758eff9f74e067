// Random identifiers of the sandbox's resources, with the API's prefixes (`cth-`, `thc-`, ...);
// request ids and the random source are @svc/spec-runtime's.
import { randomAlphanumeric, randomByte } from '@svc/spec-runtime';

export { generateRequestId } from '@svc/spec-runtime';

/** A new id with the given prefix ("cth-"), unique among `taken`. */
export function newId(prefix: string, taken: (id: string) => boolean = () => false): string {
  for (;;) {
    const id = `${prefix}${randomAlphanumeric(8)}`;
    if (!taken(id)) return id;
  }
}

/** Lower-case hex, for ids whose form the API shows without a prefix (dialer queues). */
export function randomHex(length: number): string {
  let out = '';
  while (out.length < length) out += randomByte().toString(16).padStart(2, '0');
  return out.slice(0, length);
}
