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
  operationId: 'listUsers',
  resource: 'users',
  needs: {},
  requests: (t) => t.call({}),
  problems: (exchange) => unless(exchange.status === 200, `expected 200, got ${exchange.status}`, exchange),
  passed: (exchange) => `listUsers answered ${exchange.status}`,
});
