// The generated checks of what an operation is sent: its request id echoed, the documented limits
// from inside (boundary.inside) and every kind of negative input its parameters and body allow,
// each refused as the contract says. Each is one rule() entry.
import type { Operation } from '@svc/spec-runtime';
import { errorProblems, type OpRequest } from '../expectations/expect.js';
import { describeReadings } from '../expectations/readings.js';
import { type BoundaryCase, boundaryCases } from '../generate/boundaries.js';
import { MALFORMED_BODY, type NegativeCase, type NegativeKind, negativeCases } from '../generate/negatives.js';
import { type ApiRequest, type Exchange, errorOf, header } from '../http/exchange.js';
import { documentedInputs } from '../reach/inputs.js';
import type { Spec } from '../spec.js';
import { type CheckContext, checkDescription, rule } from './harness.js';
import { paramProblems } from './negative-param.js';
import { documentedHeaders, type OperationUnderTest, sampleRequest } from './operation-context.js';
import { errorsOf, isSuccess, statusIs, unless } from './problems.js';
import { SEVERAL_FIELDS } from './several-fields.js';

/** The negative checks, one per kind of input the contract refuses (generate/negatives.ts finds the cases). */
export const NEGATIVE_CHECKS: { [kind in NegativeKind]: ReturnType<typeof checkDescription> } = {
  'negative.out-of-range': checkDescription({
    id: 'negative.out-of-range',
    title: 'Integer parameters outside their bounds (page, size) are refused with the documented code',
    source: 'parameter minimum/maximum + x-svc-error-code',
    precondition: 'a request the server must refuse: one integer parameter outside its bounds',
  }),
  'negative.phone-format': checkDescription({
    id: 'negative.phone-format',
    title: 'Phone numbers not in E.164 are refused with the documented code',
    source: 'PhoneNumber pattern + x-svc-error-code',
    precondition: 'a request the server must refuse: one phone number not in E.164',
  }),
  'negative.enum': checkDescription({
    id: 'negative.enum',
    title: 'Values outside an enum are refused with the documented code, a value of the enum in another case too',
    source: 'enum + x-svc-error-code',
    precondition: 'a request the server must refuse: one value outside its enum, or of it in another case',
  }),
  'negative.pattern': checkDescription({
    id: 'negative.pattern',
    title: 'Strings that do not match their pattern are refused with the documented code',
    source: 'pattern + x-svc-error-code',
    precondition: 'a request the server must refuse: one string that does not match its pattern',
    enforces: ['x-svc-option-rules LABEL_NOT_BLANK'],
  }),
  'negative.missing-required': checkDescription({
    id: 'negative.missing-required',
    title: 'Missing required parameters and fields are refused with the documented code',
    source: 'required + x-svc-error-code',
    precondition: 'a request the server must refuse: one required parameter or field left out',
  }),
  'negative.too-long': checkDescription({
    id: 'negative.too-long',
    title:
      'Strings and lists outside their length limits (over the maximum, under a minimum) are refused with the documented code',
    source: 'maxLength/maxItems, minLength/minItems + x-svc-error-code',
    precondition: 'a request the server must refuse: one string or list outside its length limits',
    enforces: ['x-svc-option-rules LABEL_MAX_LENGTH'],
  }),
  'negative.unknown-field': checkDescription({
    id: 'negative.unknown-field',
    title: 'Unknown body fields are refused, never dropped',
    source: 'additionalProperties: false + x-svc-error-code',
    precondition: 'a request the server must refuse: one body field the contract does not have',
  }),
  'negative.malformed-json': checkDescription({
    id: 'negative.malformed-json',
    title: 'Malformed JSON is refused with the documented code',
    source: 'required request body',
    precondition: 'a request the server must refuse: a body that is not JSON',
  }),
  'negative.content-type': checkDescription({
    id: 'negative.content-type',
    title: 'A body that is not application/json is refused with 415',
    source: "the operation's 415 response",
    precondition: 'a request the server must refuse: a body that is not application/json',
  }),
  'negative.id-prefix': checkDescription({
    id: 'negative.id-prefix',
    title: 'An id with the wrong prefix is refused with the documented code',
    source: 'x-svc-id-prefix + pattern + parameter x-svc-error-code',
    precondition: 'a request the server must refuse: one id with another prefix',
  }),
  'negative.several-fields': SEVERAL_FIELDS,
  'negative.unknown-id': checkDescription({
    id: 'negative.unknown-id',
    title:
      'An unknown id of each prefix gives the documented 404, never the not-found code of another kind than its prefix names (no TEXT_MESSAGE_NOT_FOUND for a cll- id)',
    source:
      'parameter x-svc-error-code / the operation\'s 404 codes; Identifier prefixes (Call cll-, Text message msg-) + CALL_NOT_FOUND "No call with this id", TEXT_MESSAGE_NOT_FOUND "No text message with this id"',
    precondition: 'a request the server must refuse: one id of the right prefix that names nothing',
  }),
};

/** Values at each documented limit, from inside (per operation, and the option labels of custom fields). */
export const BOUNDARY_INSIDE = checkDescription({
  id: 'boundary.inside',
  title:
    'Values at each documented limit (page and size at their bounds, strings and lists of exactly the maximum) are accepted; a string at its maximum holds apostrophes, "&", quotes, "<>" and "é" where its pattern allows them',
  source: 'minimum/maximum, minLength/maxLength, maxItems',
  precondition: 'requests with one value exactly at each documented limit, the rest valid',
});

export function negativeKinds(spec: Spec, op: Operation): NegativeKind[] {
  const kinds = negativeCases(spec, op, sampleRequest(spec, op)).map((c) => c.kind);
  // The sample holds required fields only: a range deeper in an optional block still needs its check.
  if (documentedInputs(spec, op).rules.some((r) => /^body \S+ (minimum|maximum)$/.test(r)))
    kinds.push('negative.out-of-range');
  return [...new Set(kinds)];
}

interface Echo {
  sent: string;
  exchange: Exchange;
}

async function sendRequestIds(u: OperationUnderTest, t: CheckContext): Promise<Echo[]> {
  const base = await u.baseline(t);
  const echoes: Echo[] = [];
  const send = async (suffix: string, extra: Partial<ApiRequest>) => {
    const sent = `svc-contract-${t.config.runId}-${u.op.operationId}-${suffix}`;
    echoes.push({ sent, exchange: await t.call(base, { requestId: sent, ...extra }) });
  };
  if (!u.changesData) await send('ok', {});
  // An error too, so the body's request_id is checked: malformed JSON where there is a body
  // (it cannot execute anything), otherwise no key.
  await send('error', u.op.requestBody ? { rawBody: MALFORMED_BODY, unparseable: true } : { auth: { kind: 'none' } });
  return echoes;
}

function echoProblems(name: string, { sent, exchange }: Echo) {
  const echoed = header(exchange, name);
  const body = errorOf(exchange);
  return [
    ...unless(
      echoed === sent,
      `sent ${name} ${sent}, the response header was ${JSON.stringify(echoed ?? null)}`,
      exchange,
    ),
    ...(exchange.status >= 400
      ? unless(
          body?.request_id === sent,
          `sent ${name} ${sent}, error.request_id was ${JSON.stringify(body?.request_id ?? null)}`,
          exchange,
        )
      : []),
  ];
}

/** The request id the client sent comes back in the header, and in the body of an error. */
export function requestIdRule(u: OperationUnderTest): void {
  rule({
    id: 'request-id.echo',
    title: 'A sent X-Request-Id is echoed in the header and in error.request_id',
    source: 'RequestIdParameter',
    precondition: 'a request sent with its own X-Request-Id',
    ...u.where,
    needs: { writes: u.changesData && !u.op.requestBody },
    requests: (t) => sendRequestIds(u, t),
    problems: (echoes) => echoes.flatMap((e) => echoProblems(u.spec.requestIdHeader, e)),
  });
}

/** Each case of a rule with several, beside its answer. */
interface Sent<Case> {
  case: Case;
  exchange: Exchange;
}

async function sendEach<Case extends { request: OpRequest }>(
  t: CheckContext,
  cases: readonly Case[],
  extra: (c: Case) => Partial<ApiRequest> = () => ({}),
): Promise<Array<Sent<Case>>> {
  const sent: Array<Sent<Case>> = [];
  for (const c of cases) sent.push({ case: c, exchange: await t.call(c.request, extra(c)) });
  return sent;
}

const insideProblems = (s: Sent<BoundaryCase>) =>
  statusIs(s.exchange, isSuccess, `${s.case.label} is inside the documented limit`);

/** Values at each documented limit, from inside: accepted. */
export function boundaryRule(u: OperationUnderTest): void {
  const { spec, op, plan } = u;
  const sendsSuccess = plan.success !== false;
  if (boundaryCases(spec, op, sampleRequest(spec, op), sendsSuccess).length === 0) return;
  rule({
    ...BOUNDARY_INSIDE,
    ...u.where,
    needs: { writes: u.changesData },
    requests: async (t) => {
      const cases = boundaryCases(spec, op, await u.baseline(t), sendsSuccess);
      if (cases.length === 0) return t.skip('no documented limit applies to the request');
      return sendEach(t, cases);
    },
    problems: (sent) => sent.flatMap(insideProblems),
    held: (sent) =>
      sent
        .filter((s) => insideProblems(s).length === 0)
        .map((s) => ({ detail: s.case.label, constraint: { id: s.case.constraint, side: 'inside' as const } })),
  });
}

/** A case's raw body, where it is not JSON the client can serialize (malformed JSON, another media type). */
function rawOf(c: NegativeCase): Partial<ApiRequest> {
  if (!c.raw) return {};
  return {
    rawBody: c.raw.body,
    ...(c.raw.contentType ? { contentType: c.raw.contentType } : {}),
    ...(c.raw.unparseable ? { unparseable: true } : {}),
  };
}

const refusedAsExpected = (s: Sent<NegativeCase>) => errorProblems(s.exchange, s.case.expected).length === 0;

/** One rule per kind of negative input the operation allows: each case refused as the contract says. */
export function negativeRules(u: OperationUnderTest): void {
  const { spec, op } = u;
  for (const kind of negativeKinds(spec, op)) {
    rule({
      ...NEGATIVE_CHECKS[kind],
      ...u.where,
      needs: { writes: u.changesData && kind !== 'negative.malformed-json', stateful: kind === 'negative.unknown-id' },
      requests: async (t) => {
        const baseline = await u.baseline(t);
        const cases = negativeCases(spec, op, baseline).filter((c) => c.kind === kind);
        if (cases.length === 0) return t.skip('no case of this kind applies to the request the fixtures allow');
        // Each with its own request id and idempotency key: a refusal answers the id sent ("If the
        // client sends an X-Request-Id header, that value is used") and echoes the key, whichever
        // layer refuses it (the media type, the JSON, the schema), as response.request-id reads.
        let n = 0;
        const headers = () => documentedHeaders(op, `${t.config.runId}-${op.operationId}-${kind}-${++n}`);
        return { baseline, sent: await sendEach(t, cases, (c) => ({ ...headers(), ...rawOf(c) })) };
      },
      problems: ({ baseline, sent }) =>
        sent.flatMap((s) => {
          const refused = errorsOf(s.exchange, s.case.expected, s.case.label);
          return refused.length > 0 || s.case.raw
            ? refused
            : paramProblems(s.exchange, baseline, s.case.request, s.case.label);
        }),
      held: ({ sent }) =>
        sent.filter(refusedAsExpected).map((s) => ({
          detail: s.case.label,
          ...(s.case.constraint ? { constraint: { id: s.case.constraint, side: 'outside' as const } } : {}),
          readings: describeReadings(s.case.expected),
        })),
    });
  }
}
