// @svc/spec-runtime/facts: what the contract tests (and the docs) derive from the contract:
// headers every response requires, resources, safety of an operation, inferred scopes, API-wide
// codes, component schemas, the codes of shared responses, operations named without a method, and
// the mention syntax of notes and comments (one scan, shared with the sandbox).
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
export { scanMentions, type WrittenMention } from './mentions.js';
export { readUnspecifiedOperations, type UnspecifiedOperation } from './unspecified-operations.js';
