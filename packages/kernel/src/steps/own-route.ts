// Which own route a request calls: the route of its path and method, else the documented 405 with
// Allow (HEAD is answered as GET, as on the API's paths).
import type { Credentials } from '../auth.js';
import type { OwnRoute } from '../own-routes.js';
import type { KernelStep, Services } from '../services.js';
import { allowHeader } from './route.js';

export function ownRouteStep<K extends Credentials>(
  { refuse }: Services<K>,
  routes: readonly OwnRoute<K>[],
): KernelStep<K> {
  return {
    name: 'own route',
    run(x, next) {
      const method = x.method === 'HEAD' ? 'GET' : x.method;
      const onPath = routes.filter((route) => answersPath(route, x.pathname));
      const route = onPath.find((candidate) => candidate.method === method);
      if (route) {
        x.ownRoute = route;
        return next();
      }
      const allow = allowHeader(onPath.map((candidate) => candidate.method));
      x.responseHeaders.Allow = allow;
      return refuse(x.requestId, {
        error: 'METHOD_NOT_ALLOWED',
        message: `${method} is not supported on ${x.pathname}; allowed: ${allow}.`,
      });
    },
  };
}

/** Whether an own route answers a path: its own, or one segment under it when it takes one. */
export function answersPath<K extends Credentials>(route: OwnRoute<K>, pathname: string): boolean {
  if (route.path === pathname) return true;
  if (!route.segment || !pathname.startsWith(`${route.path}/`)) return false;
  const rest = pathname.length - route.path.length - 1;
  return rest > 0 && pathname.indexOf('/', route.path.length + 1) === -1;
}
