export { apiKeyOf } from './api-key.js';
export type { Catalogue, CatalogueEntry } from './catalogue.js';
export { isRetryable, readCatalogue, readStatusesOfType } from './catalogue.js';
export type { ClientErrorSocket } from './client-error.js';
export { answerClientError, canAnswerClientError, clientErrorResponse } from './client-error.js';
export type { Contract, Limits, LoadContractOptions } from './contract.js';
export { DEFAULT_DOC_URL_BASE, loadContract, readLimits } from './contract.js';
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
export { isDecimal } from './decimal.js';
export type { ApiErrorBody, BuildErrorOptions, BuiltError, ErrorChoice, FieldError } from './errors.js';
export { INVALID_REQUEST, MAX_FIELD_ERRORS } from './errors.js';
export { headerNamesByComponent } from './header-names.js';
export { idPrefixOf } from './id-prefixes.js';
export type { BodyLimits, BodyResult, BodyTask, CheckedBody } from './json-body.js';
export { checkJsonRequest, DEFAULT_BODY_LIMITS, parseJsonBody, unsupportedContentType } from './json-body.js';
export { childPointer, follow, getByPointer, isObject, type Json, type JsonObject } from './json-pointer.js';
export type { Operation, OperationParameter, OperationRequestBody, ParameterLocation } from './operations.js';
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
export { generateRequestId, headerText, randomAlphanumeric, randomByte, requestIdFor } from './request-id.js';
export type { HeaderSource, QuerySource, RequestParts } from './request-validation.js';
export { EVERY_ERROR_MAX_NODES } from './request-validation.js';
export type { ResponseProblem, ResponseProblemKind } from './response-validation.js';
export type { RouteMatch } from './route-matcher.js';
export { deref, idPrefixes, itemsOf, propertiesOf, requiredOf, typesOf } from './schema-walk.js';
export { headerNamesOf, type ServerHeaderNames, serverHeaderNames } from './server-headers.js';
export { readUnspecifiedOperations, type UnspecifiedOperation } from './unspecified-operations.js';
export type { Violation, ViolationLocation } from './violations.js';
export { codeOf, fieldName, previewValue } from './violations.js';
