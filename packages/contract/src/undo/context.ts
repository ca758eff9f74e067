// What the undo modules share: the contract, a way to the server (the run's own client: paced,
// recorded and checked like every request), and requests addressed by operation.

import { isDeepStrictEqual } from 'node:util';
import { isObject, type Operation } from '@svc/spec-runtime';
import { projectOnto } from '../generate/schema.js';
import { type ApiRequest, dataOf, type Exchange } from '../http/exchange.js';
import type { Spec } from '../spec.js';
import type { PersonUpdateFixture } from '../types.js';
import type { UndoProblem } from '../undo-ledger.js';

export interface UndoContext {
  spec: Spec;
  send: (request: ApiRequest) => Promise<Exchange>;
  /** The config's person update: the one update of a person the run may send to succeed, and its undo. */
  personUpdate?: PersonUpdateFixture;
}

export type Json = Record<string, unknown>;

export interface Addressed {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

function operation(cx: UndoContext, operationId: string): Operation {
  const op = cx.spec.contract.operationsById.get(operationId);
  if (!op) throw new Error(`The contract has no operation ${operationId}.`);
  return op;
}

/** Sends a request to an operation, its path parameters encoded. */
export function callOp(cx: UndoContext, operationId: string, request: Addressed): Promise<Exchange> {
  const op = operation(cx, operationId);
  const params = request.params ?? {};
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  return cx.send({
    method: op.method,
    path,
    ...(request.query ? { query: request.query } : {}),
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
}

export function succeeded(exchange: Exchange): boolean {
  return exchange.error === undefined && exchange.status >= 200 && exchange.status < 300;
}

export function dataObject(exchange: Exchange): Json | undefined {
  const data = succeeded(exchange) ? dataOf(exchange) : undefined;
  return isObject(data) ? data : undefined;
}

/** A value as the operation's request body can carry it (what a write can put back). */
export function writable(cx: UndoContext, operationId: string, value: unknown): Json {
  const op = operation(cx, operationId);
  if (!op.requestBody) return {};
  const body = projectOnto(cx.spec, cx.spec.resolve(op.requestBody.schemaPointer), value);
  return isObject(body) ? body : {};
}

export const sameJson = isDeepStrictEqual;

/** The problem of a write that should have put something back and did not. */
export function leftChanged(what: string, exchange: Exchange): UndoProblem[] {
  if (succeeded(exchange)) return [];
  return [{ message: `${what} was left changed: putting it back got ${exchange.error ?? exchange.status}`, exchange }];
}

/** The problem of a read that should have shown what to put back. */
export function unreadable(what: string, exchange: Exchange): UndoProblem[] {
  return [
    { message: `${what} could not be read again to put it back (${exchange.error ?? exchange.status})`, exchange },
  ];
}
