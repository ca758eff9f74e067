// @svc/spec-runtime/walk: the bundle's operations as written (under paths and webhooks), their
// parameters, examples and media, the catalogue, limits and header names read from the bundle:
// what the docs and the suite's generators walk, not what a server needs at request time.
export { readCatalogue, readStatusesOfType } from './catalogue.js';
export { readLimits } from './contract.js';
export { headerNamesByComponent } from './header-names.js';
export {
  findCodeEnum,
  HTTP_METHODS,
  type HttpMethod,
  type OperationEntry,
  operationEntries,
  ownExample,
  parameterObjects,
  requestBodyMedia,
  responseKeyFor,
} from './operations.js';
export { headerNamesOf } from './server-headers.js';
