// People: their search and update bodies are not shown by the contract. The search sends the
// contract's own example; the update is sent only to be refused (its negative inputs, and one PUT
// of mistyped fields on a person of the team), because a PUT whose semantics (merge or replace)
// are not shown could wipe a record on a real server.
import { ownExample, requestBodyMedia } from '@svc/spec-runtime/walk';
import { need } from '../fixtures.js';
import { type Exchange, errorCode } from '../http/exchange.js';
import { type CheckContext, rule, statefulWrite } from './harness.js';
import { operationChecks } from './operation-checks.js';
import { unless } from './problems.js';
import { type Json, short } from './support.js';

operationChecks('searchPeople', {
  baseline: (t) => ({
    body: ownExample(t.spec.contract.bundle, requestBodyMedia(t.spec.contract.bundle, t.op().raw))?.value ?? {},
  }),
});

operationChecks('updatePerson', {
  success: false,
  withheld:
    'a PUT whose merge or replace is not shown could wipe the record; only refused requests, and the update the config declares (fixtures.person_update, people-update.contract.ts), are sent',
  baseline: (_t, f) => ({
    params: { id: need(f.people[0], 'a person id (set fixtures.person_ids in the config file)') },
    body: {},
  }),
});

/**
 * The update's example body with each text value sent as a number: what the operation's own 400
 * example refuses ("name must be a string"), so that a server that finds the person refuses it and
 * changes nothing.
 */
function mistyped(t: CheckContext): Json {
  const example = ownExample(t.spec.contract.bundle, requestBodyMedia(t.spec.contract.bundle, t.op().raw))?.value;
  const fields = Object.entries(typeof example === 'object' && example !== null ? example : {}).filter(
    ([, value]) => typeof value === 'string',
  );
  if (fields.length === 0) return t.skip('the update of a person shows no example field to send mistyped');
  return Object.fromEntries(fields.map(([name, value]) => [name, (value as string).length]));
}

interface ExistingUpdate {
  id: string;
  body: Json;
  exchange: Exchange;
}

rule({
  id: 'people.update-existing',
  title:
    'A PUT on a person of the team (named in --config) is not answered as for an unknown person: never 404 PERSON_NOT_FOUND',
  source:
    'PERSON_NOT_FOUND: "No person with this `per-*` id"; "PUT /v2/api/crm/people/{id} | not shown | Updates a person"',
  precondition:
    'a person of the team (fixtures.person_ids: no operation shows people in a known shape), sent a PUT of the example fields mistyped, which changes nothing',
  ...statefulWrite('updatePerson'),
  requests: async (t): Promise<ExistingUpdate> => {
    const id = need(t.config.config.fixtures.person_ids?.[0], 'a person of the team (set fixtures.person_ids)');
    const body = mistyped(t);
    return { id, body, exchange: await t.call({ params: { id }, body }) };
  },
  problems: ({ id, body, exchange }, t) => {
    const code = errorCode(exchange);
    const notFound = t.op().codesByStatus.get(404);
    return unless(
      !(exchange.status === 404 && code !== undefined && notFound?.has(code)),
      `PUT ${id} (${short(body)}), a person of the team named in fixtures.person_ids, answered 404 ${code} as if no person had this id`,
      exchange,
    );
  },
  passed: ({ exchange }) => `answered ${exchange.status}${errorCode(exchange) ? ` ${errorCode(exchange)}` : ''}`,
});
