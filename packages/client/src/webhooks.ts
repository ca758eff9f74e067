/**
 * `@svc/api-client/webhooks`: checks a webhook delivery the service sent to your endpoint.
 *
 * A delivery is an HTTP POST whose JSON body is `{ topic, body }`. {@link parseWebhook} takes that
 * body (the raw text or bytes, or the value your framework already parsed) and validates it
 * against the contract's schema for its topic, returning a typed event or a typed error; it never
 * throws on bad input. The validators are compiled from the contract at build time, so this
 * entry point carries no schema compiler, and the main entry (`@svc/api-client`) does not grow.
 *
 * What the contract does not show is not checked here: the signature header, the signing scheme
 * and the retry schedule are not described, so no signature verification is offered (and none
 * is invented).
 *
 * @example
 * import { parseWebhook } from '@svc/api-client/webhooks';
 * const result = parseWebhook(await request.text());
 * if (result.ok && result.event.topic === 'CALL_RECEIVED') console.log(result.event.body.summary);
 * else if (!result.ok) console.warn(result.error.kind, result.error.message);
 *
 * @packageDocumentation
 */
import type { WebhookEvent, webhooks } from '@svc/api-types';
import { WEBHOOK_VALIDATORS } from './generated/webhooks.js';
import { problemOf, type SvcWebhookProblem, type ValidatorError } from './webhook-problems.js';

export type { SvcWebhookProblem } from './webhook-problems.js';

/** Every webhook topic of the contract (`CALL_RECEIVED`, …). */
export type SvcWebhookTopic = keyof webhooks & string;

/** A validated delivery, `{ topic, body }`, typed by its topic. */
export type SvcWebhookEvent<Topic extends SvcWebhookTopic = SvcWebhookTopic> = Topic extends unknown
  ? WebhookEvent<Topic>
  : never;

/** Why a delivery was refused. */
export interface SvcWebhookError {
  /**
   * `invalid-json`: the body is not JSON; `not-an-event`: not an object with a string `topic`;
   * `unknown-topic`: a topic the contract does not describe; `invalid-event`: the topic's schema
   * refuses it (see `problems`).
   */
  readonly kind: 'invalid-json' | 'not-an-event' | 'unknown-topic' | 'invalid-event';
  readonly message: string;
  /** The delivery's topic, when it had one. */
  readonly topic: string | undefined;
  /**
   * What the schema refused (at most {@link MAX_PROBLEMS}), each as an entry of the API's own
   * `errors[]`: field, code, message; empty unless `kind` is `invalid-event`.
   */
  readonly problems: readonly SvcWebhookProblem[];
}

/** The result of {@link parseWebhook}: a typed event, or a typed error. */
export type SvcWebhookResult =
  | { ok: true; event: SvcWebhookEvent; error?: undefined }
  | { ok: false; event?: undefined; error: SvcWebhookError };

/** The most problems one error lists: a huge, broken delivery must not produce a huge error. */
export const MAX_PROBLEMS = 20;

/**
 * A delivery of at most this many JSON values (objects, arrays and scalars, counted together) gets
 * every problem listed (up to {@link MAX_PROBLEMS}); a larger one is answered from its first
 * problem. Listing every problem of a large array costs the square of its size (Ajv's allErrors),
 * and anyone who knows the endpoint's URL can post one; the first problem costs one pass.
 */
export const EVERY_PROBLEM_MAX_VALUES = 256;

interface Validator {
  (value: unknown): boolean;
  errors?: ValidatorError[] | null;
}

const firstProblem = WEBHOOK_VALIDATORS.first as Record<SvcWebhookTopic, Validator>;
const everyProblem = WEBHOOK_VALIDATORS.every as Record<SvcWebhookTopic, Validator>;

/** The topics this package can check (the contract's `webhooks`). */
export const webhookTopics: readonly SvcWebhookTopic[] = Object.keys(firstProblem) as SvcWebhookTopic[];

/** Whether a value is a webhook topic of the contract. */
export function isWebhookTopic(value: unknown): value is SvcWebhookTopic {
  return typeof value === 'string' && Object.hasOwn(firstProblem, value);
}

function refuse(
  kind: SvcWebhookError['kind'],
  message: string,
  topic?: string,
  problems: SvcWebhookProblem[] = [],
): SvcWebhookResult {
  return { ok: false, error: { kind, message, topic, problems } };
}

/** Whether `value` holds at most `limit` JSON values; stops counting as soon as it knows. */
function hasAtMostValues(value: unknown, limit: number): boolean {
  const stack: unknown[] = [value];
  let count = 0;
  while (stack.length > 0) {
    const node = stack.pop();
    if (++count > limit) return false;
    if (Array.isArray(node)) {
      if (count + node.length > limit) return false;
      stack.push(...node);
    } else if (typeof node === 'object' && node !== null) {
      for (const key in node) {
        if (count + stack.length > limit) return false;
        stack.push((node as Record<string, unknown>)[key]);
      }
    }
  }
  return true;
}

/** The text of a body given as bytes (any ArrayBuffer or view of one), else undefined. */
function bytesOf(payload: unknown): ArrayBuffer | ArrayBufferView | undefined {
  if (ArrayBuffer.isView(payload)) return payload;
  // Across realms (a worker, a VM context) instanceof fails; the tag does not.
  if (payload instanceof ArrayBuffer || Object.prototype.toString.call(payload) === '[object ArrayBuffer]')
    return payload as ArrayBuffer;
  return undefined;
}

/** The delivery as a value: text and bytes parsed (a leading byte-order mark skipped), a value as it is. */
function deliveryOf(payload: unknown): { value: unknown } | undefined {
  const bytes = bytesOf(payload);
  // TextDecoder skips a UTF-8 byte-order mark by itself; a string keeps one, which JSON.parse refuses.
  const text =
    typeof payload === 'string' ? payload.replace(/^\uFEFF/, '') : bytes ? new TextDecoder().decode(bytes) : undefined;
  if (text === undefined) return { value: payload };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * Validates a webhook delivery against the contract. `payload` is the request body as text
 * (with or without a byte-order mark) or bytes in UTF-8 (a `Uint8Array` or `Buffer`, an
 * `ArrayBuffer` as `request.arrayBuffer()` gives, a `DataView`), or the value already parsed from it.
 */
export function parseWebhook(payload: string | Uint8Array | ArrayBuffer | ArrayBufferView | unknown): SvcWebhookResult {
  const delivery = deliveryOf(payload);
  if (!delivery) return refuse('invalid-json', 'The delivery body is not valid JSON.');
  const { value } = delivery;
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    typeof (value as { topic?: unknown }).topic !== 'string'
  ) {
    return refuse('not-an-event', 'A delivery is a JSON object { topic, body } with a string topic.');
  }
  const topic = (value as { topic: string }).topic;
  if (!isWebhookTopic(topic)) {
    return refuse(
      'unknown-topic',
      `The contract describes no webhook topic ${JSON.stringify(topic.slice(0, 100))}; known: ${webhookTopics.join(', ')}.`,
      topic,
    );
  }
  const first = firstProblem[topic];
  if (first(value)) return { ok: true, event: value as SvcWebhookEvent };
  const every = everyProblem[topic];
  const errors =
    (hasAtMostValues(value, EVERY_PROBLEM_MAX_VALUES) && !every(value) ? every.errors : first.errors) ?? [];
  return invalid(topic, value, errors);
}

function invalid(topic: SvcWebhookTopic, value: unknown, errors: readonly ValidatorError[]): SvcWebhookResult {
  const problems = errors.slice(0, MAX_PROBLEMS).map((error) => problemOf(error, value));
  const [first] = problems;
  const more = errors.length - 1;
  return refuse(
    'invalid-event',
    `The ${topic} delivery does not match the contract${first ? `: ${first.message}${more > 0 ? ` (and ${more} more)` : ''}` : ''}.`,
    topic,
    problems,
  );
}
