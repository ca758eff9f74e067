// @svc/spec-runtime: what a server or a client needs of the contract at run time. The walkers of
// the bundle (for the docs and the suite's generators) are on @svc/spec-runtime/walk, the facts
// the contract tests derive on @svc/spec-runtime/facts.
export { apiKeyOf } from './api-key.js';
export type { Catalogue, CatalogueEntry, DetailRule } from './catalogue.js';
export { isRetryable } from './catalogue.js';
export type { Contract, Limits, LoadContractOptions } from './contract.js';
export { DEFAULT_DOC_URL_BASE, loadContract } from './contract.js';
export type { ApiErrorBody, BuildErrorOptions, BuiltError, ErrorChoice, FieldError } from './errors.js';
export { INVALID_REQUEST, MAX_FIELD_ERRORS } from './errors.js';
export { idPrefixOf } from './id-prefixes.js';
export type { BodyLimits, BodyResult, BodyTask, CheckedBody } from './json-body.js';
export { checkJsonRequest, DEFAULT_BODY_LIMITS, parseJsonBody, unsupportedContentType } from './json-body.js';
export { childPointer, follow, getByPointer, isObject, type Json, type JsonObject } from './json-pointer.js';
export type { Operation, OperationParameter, OperationRequestBody, ParameterLocation } from './operations.js';
export { generateRequestId, headerText, randomAlphanumeric, requestIdFor } from './request-id.js';
export type { HeaderSource, QuerySource, RequestParts } from './request-validation.js';
export type { ResponseProblem, ResponseProblemKind } from './response-validation.js';
export type { RouteMatch } from './route-matcher.js';
export { deref, idPrefixes, itemsOf, propertiesOf, requiredOf, typesOf } from './schema-walk.js';
export { type ServerHeaderNames, serverHeaderNames } from './server-headers.js';
export type { Violation, ViolationLocation } from './violations.js';
export { codeOf, fieldName, previewValue } from './violations.js';
