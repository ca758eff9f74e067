/**
 * Types of the Team Communications Service API, generated from its OpenAPI contract.
 *
 * `paths`, `components`, `operations` and `webhooks` are openapi-typescript's output, ready for
 * openapi-fetch's `createClient<paths>()`. Every schema is also exported under its own name
 * (`Thread`, `ConversationNote`, `ErrorCode`, …), with a few helpers people reach for.
 */
import type { operations, webhooks } from './generated/openapi.js';

export type { components, operations, paths, webhooks } from './generated/openapi.js';
export type * from './generated/schemas.js';

/** The operationId of every documented operation. */
export type OperationId = keyof operations;

type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 415 | 429 | 500;
type JsonBody<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
type ResponsesOf<Op extends OperationId> = operations[Op]['responses'];

/** The error bodies an operation documents, one per documented error status. */
export type OperationErrorBody<Op extends OperationId> = {
  [Status in keyof ResponsesOf<Op>]: Status extends ErrorStatus ? JsonBody<ResponsesOf<Op>[Status]> : never;
}[keyof ResponsesOf<Op>];

/** Exactly the error codes an operation documents, across all of its error statuses. */
export type OperationErrorCode<Op extends OperationId> =
  OperationErrorBody<Op> extends infer Body ? (Body extends { error: { code: infer Code } } ? Code : never) : never;

/** The error codes an operation documents for one HTTP status. */
export type OperationErrorCodeFor<Op extends OperationId, Status extends keyof ResponsesOf<Op>> =
  JsonBody<ResponsesOf<Op>[Status]> extends { error: { code: infer Code } } ? Code : never;

/** The JSON body of a webhook delivery, by topic (`{ topic, body }`). */
export type WebhookEvent<Topic extends keyof webhooks> = webhooks[Topic] extends {
  post: { requestBody?: { content: { 'application/json': infer Event } } };
}
  ? Event
  : never;

/** The `body` of a CALL_RECEIVED webhook delivery. */
export type CallReceived = WebhookEvent<'CALL_RECEIVED'> extends { body: infer Body } ? Body : never;
