// POST /__sandbox/webhooks/trigger: the HTTP form of `svc-sandbox trigger`, outside /v2/api and
// served only when the sandbox is started with --enable-webhook-trigger (it makes the sandbox
// send requests to a URL the caller chooses, which a default install must not do).
//
// Before it acts it holds what developer-guard.ts says (its own Host and Origin only,
// application/json, a key of the sandbox, the API's rate limits) and reads at most
// MAX_BODY_BYTES of the body. Body: { "topic": "CALL_RECEIVED", "url": "http://…", "call_id"?:
// "cll-…" }. Answer: 200 with { data: { topic, url, call_id, delivered, status, acknowledged } }
// once the receiver answered or could not be reached (then delivered false and status null: no
// network error is named, so the route cannot map which internal ports are open). Refusals are
// error bodies of the API's catalogue.

import { type GuardOptions, guardRefusal, readCapped, refusalResponse } from './developer-guard.js';
import type { Store } from './store/store.js';
import {
  callReceivedDelivery,
  pickCall,
  receiverUrlProblem,
  sendDelivery,
  TRIGGERABLE_TOPICS,
} from './webhook-trigger.js';

export const MAX_BODY_BYTES = 4096;

export interface TriggerOptions extends GuardOptions {
  store: Store;
  fetchImpl?: typeof fetch;
}

interface TriggerInput {
  topic: (typeof TRIGGERABLE_TOPICS)[number];
  url: string;
  call_id?: string;
}

type Refused = { code: string; message: string; param?: string };

/** The body's fields, or why they are refused. */
function inputOf(text: string): TriggerInput | Refused {
  let input: { topic?: unknown; url?: unknown; call_id?: unknown };
  try {
    input = JSON.parse(text) as typeof input;
  } catch {
    return {
      code: 'INVALID_REQUEST_BODY',
      message: 'The body must be JSON: { "topic": "CALL_RECEIVED", "url": "http://…" }.',
    };
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return { code: 'INVALID_REQUEST_BODY', message: 'The body must be a JSON object.' };
  if (!(TRIGGERABLE_TOPICS as readonly unknown[]).includes(input.topic))
    return {
      code: 'INVALID_REQUEST',
      param: 'topic',
      message: `topic must be one of ${TRIGGERABLE_TOPICS.join(', ')}.`,
    };
  if (typeof input.url !== 'string')
    return { code: 'INVALID_REQUEST', param: 'url', message: 'url is required: the receiver to POST the delivery to.' };
  const problem = receiverUrlProblem(input.url);
  if (problem) return { code: 'INVALID_REQUEST', param: 'url', message: problem.replace('--url', 'url') };
  if (input.call_id !== undefined && typeof input.call_id !== 'string')
    return { code: 'INVALID_REQUEST', param: 'call_id', message: 'call_id must be a string.' };
  return input as TriggerInput;
}

export async function handleWebhookTrigger(request: Request, options: TriggerOptions): Promise<Response> {
  const guarded = guardRefusal(options, request);
  if (guarded instanceof Response) return guarded;
  const refuse = (refusal: Refused) => refusalResponse(options, request, refusal, guarded.headers);
  const text = await readCapped(request, MAX_BODY_BYTES);
  if (text === 'too-large')
    return refusalResponse(
      options,
      request,
      { code: 'INVALID_REQUEST_BODY', message: `The body is limited to ${MAX_BODY_BYTES} bytes.` },
      // The rest of an over-cap body is never read: the connection ends with the answer.
      { ...guarded.headers, Connection: 'close' },
    );
  if (text === 'aborted')
    return refuse({ code: 'INVALID_REQUEST_BODY', message: 'The client closed the request before it was complete.' });
  const input = inputOf(text);
  if ('code' in input) return refuse(input);
  const team = options.store.state.teams.find((candidate) => candidate.calls.length > 0);
  const call = team && pickCall(team, input.call_id);
  if (!team || !call)
    return refuse({
      code: 'CALL_NOT_FOUND',
      param: 'call_id',
      message:
        input.call_id === undefined
          ? 'The seed has no calls.'
          : `No seeded call ${JSON.stringify(input.call_id.slice(0, 100))}.`,
    });
  const report = await sendDelivery(input.url, callReceivedDelivery(team, call), call.id, options.fetchImpl ?? fetch);
  return Response.json(
    {
      data: {
        topic: report.topic,
        url: report.url,
        call_id: report.callId,
        delivered: report.status !== undefined,
        status: report.status ?? null,
        acknowledged: report.acknowledged,
      },
    },
    { headers: guarded.headers },
  );
}
