export { loadContract, DEFAULT_DOC_URL_BASE } from './contract.js';
export type { Contract, Limits, LoadContractOptions } from './contract.js';
export { isRetryable } from './catalogue.js';
export type { Catalogue, CatalogueEntry } from './catalogue.js';
export type { ApiErrorBody, BuildErrorOptions, BuiltError, ErrorChoice, FieldError } from './errors.js';
export type { Operation, OperationParameter, OperationRequestBody, ParameterLocation } from './operations.js';
export type { HeaderSource, QuerySource, RequestParts } from './request-validation.js';
export type { RouteMatch } from './route-matcher.js';
export type { Violation, ViolationLocation } from './violations.js';
