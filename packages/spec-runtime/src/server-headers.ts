// The names of the headers every server of this repository reads and writes, as the bundle spells
// them: the request parameters by their `name`, the response headers by the key under which a
// documented response uses the component. Servers never type these names themselves.
import type { Contract } from './contract.js';
import { headerNamesByComponent } from './header-names.js';
import { getByPointer, isObject, type JsonObject } from './json-pointer.js';

export interface ServerHeaderNames {
  requestId: string;
  idempotencyKey: string;
  idempotencyReplayed: string;
  rateLimitLimit: string;
  rateLimitRemaining: string;
  rateLimitReset: string;
}

const cache = new WeakMap<JsonObject, ServerHeaderNames>();

/** The names as a contract's bundle spells them (read once per bundle). */
export function serverHeaderNames(contract: Contract): ServerHeaderNames {
  return headerNamesOf(contract.bundle);
}

/** The same, for readers that hold the bundle rather than a contract (the docs). */
export function headerNamesOf(bundle: JsonObject): ServerHeaderNames {
  const known = cache.get(bundle);
  if (known) return known;
  const parameterName = (component: string): string => {
    const parameter = getByPointer(bundle, `#/components/parameters/${component}`);
    if (!isObject(parameter) || typeof parameter.name !== 'string')
      throw new Error(`components.parameters.${component} has no name.`);
    return parameter.name;
  };
  const byComponent = headerNamesByComponent(bundle);
  const headerName = (component: string): string => {
    const name = byComponent.get(component);
    if (name === undefined) throw new Error(`No response uses components.headers.${component}.`);
    return name;
  };
  const names: ServerHeaderNames = {
    requestId: parameterName('RequestIdParameter'),
    idempotencyKey: parameterName('IdempotencyKeyParameter'),
    idempotencyReplayed: headerName('IdempotencyReplayedHeader'),
    rateLimitLimit: headerName('RateLimitLimitHeader'),
    rateLimitRemaining: headerName('RateLimitRemainingHeader'),
    rateLimitReset: headerName('RateLimitResetHeader'),
  };
  cache.set(bundle, names);
  return names;
}
