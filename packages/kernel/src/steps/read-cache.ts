// Reads answered from memory until the next write (when the server opted in: see ReadCache). A
// write, whatever its outcome, may have changed what every read answers, so it clears them all.
import type { Credentials } from '../auth.js';
import { andThen } from '../maybe.js';
import { ReadCache } from '../read-cache.js';
import type { KernelStep, Services } from '../services.js';

export function readCacheStep<K extends Credentials>({ reads }: Services<K>): KernelStep<K> {
  return {
    name: 'read cache',
    run(x, next) {
      if (reads === undefined) return next();
      if (x.operation.class === 'write') {
        const answered = next();
        reads.clear();
        return andThen(answered, (response) => {
          reads.clear();
          return response;
        });
      }
      const key = ReadCache.keyOf(x.key.key, x.pathname, x.query);
      const known = reads.get(key);
      if (known) return known;
      return andThen(next(), (response) => {
        reads.set(key, response);
        return response;
      });
    },
  };
}
