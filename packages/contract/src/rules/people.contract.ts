// People: their search and update bodies are not shown by the contract. The search sends the
// contract's own example; the update is exercised through its negative inputs only, because a
// PUT whose semantics (merge or replace) are not shown could wipe a record on a real server.
import { ownExample, requestBodyMedia } from '@svc/spec-runtime/walk';
import { need } from '../fixtures.js';
import { operationChecks } from './operation-checks.js';

operationChecks('searchPeople', {
  baseline: (t) => ({
    body: ownExample(t.spec.contract.bundle, requestBodyMedia(t.spec.contract.bundle, t.op().raw))?.value ?? {},
  }),
});

operationChecks('updatePerson', {
  success: false,
  withheld: 'a PUT whose merge or replace is not shown could wipe the record; only refused requests are sent',
  baseline: (_t, f) => ({
    params: { id: need(f.people[0], 'a person id (set fixtures.person_ids in the config file)') },
    body: {},
  }),
});
