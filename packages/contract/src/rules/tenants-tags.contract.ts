// "A key belongs to a single team", and tags are among what the holder of a key reads and manages
// "for one team": a tag name the run's team takes on (added to one of its items, new to the team)
// never shows in another team's tag list. Reached with a name of the run's own, since only a name
// new to the team shows a server that keeps tag names in one list for every team; no operation
// deletes a tag from a team's list, so each run leaves that one name behind.
import type { Exchange } from '../http/exchange.js';
import { type CheckContext, rule, statefulWrite } from './harness.js';
import { unless } from './problems.js';
import { asKey, ok, otherTeamKey } from './support.js';

const ADD = 'addConversationItemTags';
const REMOVE = 'removeConversationItemTag';
const LIST = 'listTags';

interface TagCrossed {
  tag: string;
  other: string;
  /** The other team's list before and after the tag was added to the run team's item. */
  before: Exchange;
  added?: Exchange;
  after?: Exchange;
  removed?: Exchange;
}

async function addNewTeamTag(t: CheckContext): Promise<TagCrossed> {
  const other = otherTeamKey(t);
  const item =
    (await t.fixtures()).items[0]?.id ?? t.skip('no call or text message is known (fixtures.item_ids)', 'config');
  const tag = `svc-contract-${t.config.runId}-team-only`;
  const before = await t.call({}, asKey(other), LIST);
  const base = { tag, other: other.name, before };
  if (!ok(before) || before.text.includes(tag)) return base;
  const added = await t.call({ params: { id: item }, body: { tags: [tag] } }, {}, ADD);
  if (!ok(added)) return { ...base, added };
  const after = await t.call({}, asKey(other), LIST);
  const removed = await t.call({ params: { id: item, tag } }, {}, REMOVE);
  return { ...base, added, after, removed };
}

rule({
  id: 'tenants.tags-of-team',
  title: "A tag name new to the run's team, added to one of its items, is not in another team's tag list",
  source:
    '"A key belongs to a single team." (Authentication); "For one team, the holder of an API key can read and manage: ... users and tags"',
  precondition:
    "a key of another team (kind other-team) whose tag list answers 2xx without the name; the name added to an item of the run's team, then that list read again",
  ...statefulWrite(ADD),
  needs: { writes: true, stateful: true, keys: true },
  requests: addNewTeamTag,
  problems: ({ tag, other, after }) =>
    after
      ? unless(
          !ok(after) || !after.text.includes(tag),
          `the tag list of ${other} (another team) shows ${tag} once the run's team added it to an item`,
          after,
        )
      : [],
  passed: ({ tag, other }) => `${tag}: not in the list of ${other}`,
  notReached: ({ tag, before, added, after }) =>
    after
      ? undefined
      : !ok(before)
        ? `the other team's tag list answered ${before.status}`
        : added
          ? `adding ${tag} answered ${added.status}`
          : `the other team's tag list already shows ${tag}`,
});
