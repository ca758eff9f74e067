// POST /__sandbox/webhooks/trigger: the HTTP form of `svc-sandbox trigger`, outside /v2/api and
// served only when the sandbox is started with --enable-webhook-trigger (it makes the sandbox
// send requests to a URL the caller chooses, which a default install must not do).
//
// Body: { "topic": "CALL_RECEIVED", "url": "http://…", "call_id"?: "cll-…" }. Answer: 200 with
// { data: { topic, url, call_id, status, acknowledged } } once the receiver answered (or could not
// be reached: status null), 400 with { error: { message } } for a bad request. Not part of the
// API's contract, so not in its error dialect.
import type { Store } from './store/store.js';
import {
  callReceivedDelivery,
  pickCall,
  receiverUrlProblem,
  sendDelivery,
  TRIGGERABLE_TOPICS,
} from './webhook-trigger.js';

const MAX_BODY_BYTES = 4096;

function refuse(message: string): Response {
  return Response.json({ error: { message } }, { status: 400 });
}

export async function handleWebhookTrigger(
  request: Request,
  store: Store,
  fetchImpl: typeof fetch = fetch,
): Promise<Response> {
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) return refuse(`The body is limited to ${MAX_BODY_BYTES} bytes.`);
  let input: { topic?: unknown; url?: unknown; call_id?: unknown };
  try {
    input = JSON.parse(text) as typeof input;
  } catch {
    return refuse('The body must be JSON: { "topic": "CALL_RECEIVED", "url": "http://…" }.');
  }
  if (typeof input !== 'object' || input === null) return refuse('The body must be a JSON object.');
  if (!(TRIGGERABLE_TOPICS as readonly unknown[]).includes(input.topic))
    return refuse(`topic must be one of ${TRIGGERABLE_TOPICS.join(', ')}.`);
  if (typeof input.url !== 'string') return refuse('url is required: the receiver to POST the delivery to.');
  const problem = receiverUrlProblem(input.url);
  if (problem) return refuse(problem.replace('--url', 'url'));
  if (input.call_id !== undefined && typeof input.call_id !== 'string') return refuse('call_id must be a string.');
  const team = store.state.teams.find((candidate) => candidate.calls.length > 0);
  const call = team && pickCall(team, input.call_id);
  if (!team || !call)
    return refuse(
      input.call_id === undefined
        ? 'The seed has no calls.'
        : `No seeded call ${JSON.stringify(input.call_id.slice(0, 100))}.`,
    );
  const report = await sendDelivery(input.url, callReceivedDelivery(team, call), call.id, fetchImpl);
  return Response.json({
    data: {
      topic: report.topic,
      url: report.url,
      call_id: report.callId,
      status: report.status ?? null,
      acknowledged: report.acknowledged,
      ...(report.failure ? { failure: report.failure } : {}),
    },
  });
}
