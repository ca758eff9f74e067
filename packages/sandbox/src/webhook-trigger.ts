// Sends a webhook delivery built from the seed to an integrator's receiver, so that they can see
// one arrive before the real service is involved (`svc-sandbox trigger CALL_RECEIVED --url URL`,
// or POST /__sandbox/webhooks/trigger when the sandbox runs with --enable-webhook-trigger).
//
// Only what the contract shows is sent: an HTTP POST with the JSON body `{ topic, body }`. The
// signature header, the signing scheme, the retry schedule and the delivery headers are not
// shown, so none is sent and nothing is retried: one attempt, and the receiver's status reported.
import type { CallReceivedEvent } from '@svc/api-types';
import type { CallRecord, TeamRecord } from './store/model.js';

/** The topics the sandbox can send: those of the contract's `webhooks` it has data for. */
export const TRIGGERABLE_TOPICS = ['CALL_RECEIVED'] as const;
export type TriggerableTopic = (typeof TRIGGERABLE_TOPICS)[number];

export const WEBHOOK_TRIGGER_PATH = '/__sandbox/webhooks/trigger';

/** How long the sandbox waits for the receiver's answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;

function lengthText(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'} ${rest} ${rest === 1 ? 'second' : 'seconds'}`;
}

/**
 * The CALL_RECEIVED delivery of one seeded call. Fields the seed has no value for (recording URL,
 * call category, one-sentence summary) are left out: none is required, and inventing them would
 * teach a shape the description does not give. `type` is sent only for outbound calls: the
 * description gives OUTBOUND and states the inbound value in words only.
 */
export function callReceivedDelivery(team: TeamRecord, call: CallRecord): CallReceivedEvent {
  const contactName = team.contacts.find((contact) => contact.numbers.includes(call.contact_number))?.name;
  const line = team.lines.find((candidate) => candidate.number === call.svc_number);
  const user = team.users.find((candidate) => candidate.id === call.user_id);
  const teamSide = { number: call.svc_number, name: user?.name ?? line?.name };
  const contactSide = { number: call.contact_number, name: contactName };
  const [from, to] = call.direction === 'OUTBOUND' ? [teamSide, contactSide] : [contactSide, teamSide];
  const summary = call.summaries.find((candidate) => candidate.status === 'COMPLETED');
  const body: CallReceivedEvent['body'] = {
    start_date: call.started_at,
    from_number: from.number,
    ...(from.name ? { from_name: from.name } : {}),
    to: to.number,
    ...(to.name ? { to_name: to.name } : {}),
    length_in_minutes: Math.round((call.duration / 60) * 100) / 100,
    length: lengthText(call.duration),
    ...(summary ? { summary: summary.content } : {}),
    transcriptions: call.transcript.map(({ source, time, text }) => ({ source, time, text })),
    concatenated_transcript: call.transcript.map((line) => line.text).join(' '),
    ...(call.direction === 'OUTBOUND' ? { type: 'OUTBOUND' } : {}),
  };
  return { topic: 'CALL_RECEIVED', body };
}

/** The call a delivery is built from: the one asked for, else the team's latest call. */
export function pickCall(team: TeamRecord, callId: string | undefined): CallRecord | undefined {
  if (callId !== undefined) return team.calls.find((call) => call.id === callId);
  return [...team.calls].sort((a, b) => b.started_at.localeCompare(a.started_at))[0];
}

export interface DeliveryReport {
  topic: TriggerableTopic;
  url: string;
  callId: string;
  /** The receiver's HTTP status, or undefined when it could not be reached. */
  status: number | undefined;
  /** The contract's receivers answer 200 to acknowledge a delivery. */
  acknowledged: boolean;
  /** Why no status arrived (connection refused, timeout, …). */
  failure?: string;
}

/** Checks a receiver URL: absolute http(s), nothing else. Returns the reason it is refused. */
export function receiverUrlProblem(url: string): string | undefined {
  if (!URL.canParse(url)) return `--url must be an absolute URL, got ${JSON.stringify(url.slice(0, 200))}`;
  const { protocol } = new URL(url);
  return protocol === 'http:' || protocol === 'https:' ? undefined : `--url must be http or https, got ${protocol}`;
}

/** POSTs one delivery, once (no retry schedule is described), and reports what the receiver answered. */
export async function sendDelivery(
  url: string,
  delivery: CallReceivedEvent,
  callId: string,
  fetchImpl: typeof fetch = fetch,
): Promise<DeliveryReport> {
  const report = { topic: delivery.topic, url, callId };
  try {
    const response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(delivery),
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      redirect: 'manual',
    });
    await response.body?.cancel().catch(() => {});
    return { ...report, status: response.status, acknowledged: response.status === 200 };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return {
      ...report,
      status: undefined,
      acknowledged: false,
      failure: cause?.code ?? cause?.message ?? (error as Error).message,
    };
  }
}

/** One line for a person: what was sent where, and what came back. */
export function describeReport(report: DeliveryReport): string {
  const sent = `${report.topic} (call ${report.callId}) -> POST ${report.url}`;
  if (report.status === undefined) return `${sent}: no answer (${report.failure ?? 'unknown failure'})`;
  return `${sent}: ${report.status}${report.acknowledged ? ' (acknowledged)' : ' (not acknowledged: a receiver answers 200)'}`;
}
