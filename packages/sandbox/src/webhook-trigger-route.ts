// POST /__sandbox/webhooks/trigger: the HTTP form of `svc-sandbox trigger`, outside /v2/api and
// served only when the sandbox is started with --enable-webhook-trigger (it makes the sandbox
// send requests to a URL the caller chooses, which a default install must not do).
//
// It is one of the sandbox's own routes that act (the kernel's own-routes.ts): before it acts it
// holds to the sandbox's own Host and Origin, application/json, a key of the sandbox on a paid
// plan and the API's rate limits, all by the kernel's own steps, and at most MAX_BODY_BYTES of
// the body are read. Body: { "topic": "CALL_RECEIVED", "url": "http://…", "call_id"?: "cll-…" }.
// Answer: 200 with { data: { topic, url, call_id, delivered, status, acknowledged } } once the
// receiver answered or could not be reached (then delivered false and status null: no network
// error is named, so the route cannot map which internal ports are open). Refusals are error
// bodies of the API's catalogue.

import type { Credentials, Failure, Outcome, OwnCall, OwnRoute } from '@svc/server-kernel';
import type { Store } from './store/store.js';
import {
  callReceivedDelivery,
  pickCall,
  receiverUrlProblem,
  sendDelivery,
  TRIGGERABLE_TOPICS,
  WEBHOOK_TRIGGER_PATH,
} from './webhook-trigger.js';

export const MAX_BODY_BYTES = 4096;

export interface TriggerOptions {
  store: Store;
  fetchImpl?: typeof fetch;
}

interface TriggerInput {
  topic: (typeof TRIGGERABLE_TOPICS)[number];
  url: string;
  call_id?: string;
}

/** The body's fields (a JSON object, as the kernel's body step read it), or why they are refused. */
function inputOf(input: { topic?: unknown; url?: unknown; call_id?: unknown }): TriggerInput | Failure {
  if (!(TRIGGERABLE_TOPICS as readonly unknown[]).includes(input.topic))
    return {
      error: 'INVALID_REQUEST',
      param: 'topic',
      message: `topic must be one of ${TRIGGERABLE_TOPICS.join(', ')}.`,
    };
  if (typeof input.url !== 'string')
    return {
      error: 'INVALID_REQUEST',
      param: 'url',
      message: 'url is required: the receiver to POST the delivery to.',
    };
  const problem = receiverUrlProblem(input.url);
  if (problem) return { error: 'INVALID_REQUEST', param: 'url', message: problem.replace('--url', 'url') };
  if (input.call_id !== undefined && typeof input.call_id !== 'string')
    return { error: 'INVALID_REQUEST', param: 'call_id', message: 'call_id must be a string.' };
  return input as TriggerInput;
}

async function trigger(body: Record<string, unknown>, options: TriggerOptions): Promise<Outcome> {
  const input = inputOf(body);
  if ('error' in input) return input;
  const team = options.store.state.teams.find((candidate) => candidate.calls.length > 0);
  const call = team && pickCall(team, input.call_id);
  if (!team || !call)
    return {
      error: 'CALL_NOT_FOUND',
      param: 'call_id',
      message:
        input.call_id === undefined
          ? 'The seed has no calls.'
          : `No seeded call ${JSON.stringify(input.call_id.slice(0, 100))}.`,
    };
  const report = await sendDelivery(input.url, callReceivedDelivery(team, call), call.id, options.fetchImpl ?? fetch);
  const data = {
    topic: report.topic,
    url: report.url,
    call_id: report.callId,
    delivered: report.status !== undefined,
    status: report.status ?? null,
    acknowledged: report.acknowledged,
  };
  return { status: 200, body: { data } };
}

/** The route, for the kernel's ownRoutes. */
export function webhookTriggerRoute<K extends Credentials>(options: TriggerOptions): OwnRoute<K> {
  return {
    method: 'POST',
    path: WEBHOOK_TRIGGER_PATH,
    acts: true,
    maxBodyBytes: MAX_BODY_BYTES,
    answer: (call: OwnCall<K>) => trigger(call.body ?? {}, options),
  };
}
