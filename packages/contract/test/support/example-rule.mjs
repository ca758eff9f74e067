// A check added as CONTRIBUTING.md's "Adding a check" says, with no other edit: one rule() entry.
// new-rule.test.ts loads it before the built CLI (node --import), so that it joins the suite's
// registry as an entry of src/rules/<resource>.contract.ts would; it exists for that test only.
import { rule } from '../../dist/rules/harness.js';
import { unless } from '../../dist/rules/problems.js';

rule({
  id: 'example.users-listed',
  title: 'The user list answers 200 (a check added by a test)',
  source: 'listUsers 200',
  // A rule id of the spec, so that RULES.md's row for it names this check too.
  enforces: ['x-svc-option-rules LABEL_UNIQUE'],
  precondition: 'any answer of the user list',
  operationId: 'listUsers',
  resource: 'users',
  needs: {},
  requests: (t) => t.call({}),
  problems: (exchange) => unless(exchange.status === 200, `expected 200, got ${exchange.status}`, exchange),
  passed: (exchange) => `listUsers answered ${exchange.status}`,
});

// A precondition no server of this test reaches (a team of a thousand users): the check finds no
// problem, and must be reported not exercised, never passed.
rule({
  id: 'example.many-users',
  title: 'A team of a thousand users lists them all (a check added by a test)',
  source: 'listUsers 200',
  precondition: 'the team has at least 1000 users',
  operationId: 'listUsers',
  resource: 'users',
  needs: {},
  requests: (t) => t.call({}),
  problems: (exchange) => unless(exchange.status === 200, `expected 200, got ${exchange.status}`, exchange),
  notReached: (exchange) => {
    const users = Array.isArray(exchange.body?.data) ? exchange.body.data.length : 0;
    return users >= 1000 ? undefined : `the team lists ${users} users, not 1000`;
  },
});
