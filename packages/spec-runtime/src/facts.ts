// @svc/spec-runtime/facts: what the contract tests (and the docs) derive from the contract:
// headers every response requires, resources, safety of an operation, inferred scopes, API-wide
// codes, component schemas, the codes of shared responses, operations named without a method.
export {
  ambiguityOf,
  apiWideCode,
  componentSchema,
  everyResponseHeaders,
  isReplayPromised,
  isSafe,
  isScopeInferred,
  type ResponseHeader,
  resourceOf,
  scopeStanding,
  sharedResponseCodes,
} from './contract-facts.js';
export { readUnspecifiedOperations, type UnspecifiedOperation } from './unspecified-operations.js';
