// The AI receptionist of a line. The update follows x-svc-merge-rules of its body: single values
// are merged (the others keep theirs), collections are replaced whole. The scenarios change one
// value or one collection, compare everything else with the configuration read before, and put
// the original back.
import { isObject } from '@svc/spec-runtime';
import { errorProblems, expectedFor } from '../checks/expect.js';
import { BODY_FORM, bodyFormReading } from '../checks/readings.js';
import { need } from '../fixtures.js';
import { projectOnto } from '../generate/schema.js';
import type { Exchange } from '../http/exchange.js';
import { once } from '../session.js';
import type { CheckContext } from './harness.js';
import { operationChecks } from './operation-checks.js';
import { at, data, deepEqual, type Json, nest, ok, short } from './support.js';

interface MergeRules {
  merged: string[];
  replaced: string[];
}

function mergeRules(t: CheckContext): MergeRules {
  const op = t.op('updateReceptionist');
  const rules = (
    t.spec.resolve(op.requestBody?.schemaPointer ?? '') as { 'x-svc-merge-rules'?: MergeRules } | undefined
  )?.['x-svc-merge-rules'];
  if (!rules || !Array.isArray(rules.merged) || !Array.isArray(rules.replaced))
    return t.skip('the update body has no x-svc-merge-rules');
  return rules;
}

async function line(t: CheckContext): Promise<string> {
  return need((await t.fixtures()).lines[0], 'a line (GET /v2/api/numbers listed none; or set fixtures.lines)');
}

async function read(t: CheckContext, number: string): Promise<{ exchange: Exchange; config?: Json }> {
  const exchange = await t.call({ params: { number } }, {}, 'getReceptionist');
  const config = data(exchange);
  return { exchange, ...(config ? { config } : {}) };
}

/** A single value as read: inside the agent block unless its name is dotted (knowledge.text). */
function single(config: Json | undefined, name: string): unknown {
  if (name.includes('.')) return at(config, name);
  return isObject(config?.agent) ? config.agent[name] : config?.[name];
}

function update(t: CheckContext, number: string, body: Json): Promise<Exchange> {
  return t.call({ params: { number }, body }, {}, 'updateReceptionist');
}

/**
 * A merged text value to play with: a plain string, not a phone number. A dotted one
 * (knowledge.text) first: both readings of the body's form (x-svc-ambiguity body-form) nest it
 * alike, while the other single values go flat in one reading and inside `agent` in the other.
 */
function textField(t: CheckContext, config: Json | undefined): string {
  const rules = mergeRules(t);
  const text = (n: string) => typeof single(config, n) === 'string' && !/phone/.test(n);
  const name = rules.merged.find((n) => n.includes('.') && text(n)) ?? rules.merged.find(text);
  return need(name, 'a text value in the receptionist configuration');
}

operationChecks('getReceptionist', { baseline: async (t) => ({ params: { number: await line(t) } }) });

/**
 * The configuration as read, sent back in the write shape (projectOnto): the single values in the
 * `agent` block or at the top level (the two readings of x-svc-ambiguity), every collection, the
 * knowledge text. Undefined where the contract would refuse it (a read shape it does not accept).
 */
function writeBack(
  t: CheckContext,
  number: string,
  config: Json | undefined,
  reading: 'agent' | 'top',
): Json | undefined {
  const op = t.op('updateReceptionist');
  if (!config || !op.requestBody) return undefined;
  const singles = isObject(config.agent) ? config.agent : {};
  const read = { ...config, ...(reading === 'agent' ? { agent: singles } : { ...singles, agent: undefined }) };
  const body = projectOnto(t.spec, t.spec.resolve(op.requestBody.schemaPointer), read) as Json | undefined;
  return body && !expectedFor(t.spec, op, { params: { number }, body }) ? body : undefined;
}

operationChecks('updateReceptionist', {
  // The whole configuration written back as read (nothing changes), so that the negative inputs
  // break each rule of every block once; one value alone where the read shape is not accepted.
  baseline: async (t) => {
    const number = await line(t);
    const body = await once(t.session, `receptionist-baseline:${number}`, async () => {
      const { config } = await read(t, number);
      const whole = writeBack(t, number, config, 'agent');
      if (whole) return whole;
      const name = textField(t, config);
      return nest(name, single(config, name));
    });
    return { params: { number }, body };
  },
  scenarios: (op, scenario) => {
    // Writing back what was read, single values at the top level (the other reading), changes nothing.
    scenario('receptionist.write-back', async (t) => {
      const number = await line(t);
      const before = await read(t, number);
      const body = writeBack(t, number, before.config, 'top');
      if (!body) return t.skip('the configuration as read is not a body the update accepts');
      let written = await update(t, number, body);
      // A server taking the other body form (x-svc-ambiguity body-form) refuses the flat single
      // values as unknown: that reading is accepted, and the configuration written back in its form.
      const otherForm = bodyFormReading(t.spec, op, { params: { number }, body }, Object.keys(body));
      const nested = writeBack(t, number, before.config, 'agent');
      if (otherForm && nested && errorProblems(written, otherForm).length === 0) {
        t.pass(`the flat single values refused as unknown (${BODY_FORM}: the agent form); written back in that form`);
        written = await update(t, number, nested);
      }
      if (
        !t.expect(ok(written), `writing the configuration back as read: expected 200, got ${written.status}`, written)
      )
        return;
      const after = (await read(t, number)).config;
      const rules = mergeRules(t);
      const stateOf = (config: Json | undefined, name: string) =>
        rules.replaced.includes(name) ? at(config, name) : single(config, name);
      for (const name of [...rules.merged, ...rules.replaced]) {
        const [was, now] = [stateOf(before.config, name), stateOf(after, name)];
        t.expect(
          deepEqual(now, was),
          `${name} changed when written back as read: ${short(was)} → ${short(now)}`,
          written,
        );
      }
    });

    scenario('receptionist.merge-rules', async (t) => {
      const number = await line(t);
      const before = await read(t, number);
      if (!before.config)
        return t.fail(
          `the receptionist of ${number} could not be read: ${before.exchange.status || before.exchange.error}`,
          before.exchange,
        );
      const rules = mergeRules(t);
      const name = textField(t, before.config);
      const old = single(before.config, name) as string;
      const value = `${old} (svc-contract ${t.config.runId})`;
      const changed = await update(t, number, nest(name, value));
      try {
        if (!t.expect(ok(changed), `updating ${name}: expected 200, got ${changed.status}`, changed)) return;
        const after = (await read(t, number)).config;
        t.expect(single(after, name) === value, `${name} was not updated: ${short(single(after, name))}`, changed);
        for (const other of rules.merged.filter((n) => n !== name)) {
          t.expect(
            deepEqual(single(after, other), single(before.config, other)),
            `${other} changed although only ${name} was sent: ${short(single(before.config, other))} → ${short(single(after, other))}`,
            changed,
          );
        }
        for (const collection of rules.replaced) {
          t.expect(
            deepEqual(at(after, collection), at(before.config, collection)),
            `${collection} changed although it was not sent`,
            changed,
          );
        }
      } finally {
        const restored = await update(t, number, nest(name, old));
        t.expect(ok(restored), `restoring ${name} failed (${restored.status})`, restored);
      }
    });

    scenario('receptionist.collections-replaced', async (t) => {
      const number = await line(t);
      const before = await read(t, number);
      if (!before.config)
        return t.fail(
          `the receptionist of ${number} could not be read: ${before.exchange.status || before.exchange.error}`,
          before.exchange,
        );
      const rules = mergeRules(t);
      // A collection to shrink by one entry: an array, or an object holding one (business_hours.schedule).
      let choice: { name: string; sent: unknown; original: unknown } | undefined;
      for (const name of rules.replaced) {
        const original = at(before.config, name);
        let sent: unknown;
        if (Array.isArray(original) && original.length > 0) sent = original.slice(1);
        else if (isObject(original)) {
          const inner = Object.entries(original).find(([, v]) => Array.isArray(v) && v.length > 0);
          if (inner) sent = { ...original, [inner[0]]: (inner[1] as unknown[]).slice(1) };
        }
        // The read shape is sent back as the write shape: only where the contract accepts it.
        if (sent !== undefined && !expectedFor(t.spec, op, { params: { number }, body: nest(name, sent) })) {
          choice = { name, sent, original };
          break;
        }
      }
      if (!choice) return t.skip('no collection with an entry to remove whose read shape the update accepts');
      const changed = await update(t, number, nest(choice.name, choice.sent));
      try {
        if (!t.expect(ok(changed), `replacing ${choice.name}: expected 200, got ${changed.status}`, changed)) return;
        const after = (await read(t, number)).config;
        t.expect(
          deepEqual(at(after, choice.name), choice.sent),
          `${choice.name} was not replaced by the set sent: ${short(at(after, choice.name))}`,
          changed,
        );
        for (const other of rules.replaced.filter((n) => n !== choice.name)) {
          t.expect(
            deepEqual(at(after, other), at(before.config, other)),
            `${other} changed although it was not sent`,
            changed,
          );
        }
        for (const name of rules.merged)
          t.expect(
            deepEqual(single(after, name), single(before.config, name)),
            `${name} changed although it was not sent`,
            changed,
          );
      } finally {
        const restored = await update(t, number, nest(choice.name, choice.original));
        t.expect(ok(restored), `restoring ${choice.name} failed (${restored.status})`, restored);
      }
    });
  },
});
