// @svc/spec-runtime/sandbox-config: what a contract run needs to know of a sandbox that no API
// operation tells it (the other demo keys with their scopes and kinds, one key per scope, the ids
// no list operation exposes), in the format of svc-contract's --config file. Here, beside neither
// server nor suite, so that the sandbox (which serves it) and the contract suite (which reads it)
// share one definition, and a run against a remote server loads no server code to read it.
// The seed is described only by the fields read here: any sandbox seed has them.

export const CONTRACT_CONFIG_PATH = '/__sandbox/contract-config';

/** Where a sandbox started with --enable-reset restores its seed (a run's used-up fixtures name it). */
export const RESET_PATH = '/__sandbox/reset';

/**
 * Where a sandbox answers what it received and sent for a request id (`<REQUESTS_PATH>/<request_id>`,
 * its request log): a contract run's failure lines name it for a sandbox.
 */
export const REQUESTS_PATH = '/__sandbox/requests';

/** Names the answer as the sandbox's, so that a client can tell it from anything else at that path. */
export const CONTRACT_CONFIG_SERVER = 'svc-sandbox';

export interface ContractConfigKey {
  name: string;
  key: string;
  scopes: string[];
  /**
   * 'other-team': a key of another team, whose reads and writes of this team's resources must be
   * refused; 'legacy-workspace': a key of a workspace not on the new contact model (TEAM_NOT_FOUND).
   */
  kind?: 'revoked' | 'trial' | 'line-limited' | 'other-team' | 'legacy-workspace';
  lines?: string[];
  /** Of a key of another team: that team's ids no list of its key shows (threads, notes, deals, people). */
  ids?: string[];
  /** The member of the team the key belongs to (is_current_user names that member). */
  user_id?: string;
}

/** The answer at CONTRACT_CONFIG_PATH: the key the config is for, and the config itself. */
export interface SandboxContractConfig {
  server: typeof CONTRACT_CONFIG_SERVER;
  /** The all-scopes demo key of the team the config describes: the key a run should use. */
  api_key: string;
  config: {
    keys: ContractConfigKey[];
    fixtures: {
      deal_ids: string[];
      person_ids: string[];
      summary_template_ids: string[];
      built_in_field_keys: string[];
      thread_ids: string[];
      threadless_item_ids: string[];
      /** Custom fields the team deleted (no operation deletes one: only the seed can name them). */
      deleted_field_keys: string[];
      /** Summary templates deactivated before any run (no operation reads a template's state). */
      inactive_summary_template_ids: string[];
      /** Members since removed from the team (no operation removes one: only the seed can name them). */
      removed_user_ids: string[];
      /** Calls with exactly one completed summary and at least one still pending. */
      one_completed_summary_call_ids: string[];
      /** Calls with more than one completed summary (SUMMARY_TEMPLATE_KEY_REQUIRED without a template_key). */
      several_completed_summary_call_ids: string[];
      /** The team's connected calendars (the operation that lists them has no method or path shown). */
      calendar_connection_ids: string[];
      /** Calls with no completed summary (none, or only pending ones): answered without a template_key. */
      no_completed_summary_call_ids: string[];
      /** Notes on no line (svc_number null): named, so that their conversation's list is seen to hold them. */
      note_ids: string[];
      /** A person update the sandbox applies, and its undo (the update's body is not shown by the contract). */
      person_update?: SandboxPersonUpdate;
    };
  };
}

/** fixtures.person_update: a person, an update of its names, the names as found, and a search that shows it. */
export interface SandboxPersonUpdate {
  id: string;
  body: { name: string; last_name: string };
  undo: { name: string | null; last_name: string | null };
  search: Record<string, never>;
}

/** A seed's key, as far as the config reads it. */
export interface SeedKeyLike {
  key: string;
  name: string;
  team_id: string;
  /** The member the key belongs to. */
  owner_user_id?: string;
  scopes: string[];
  revoked: boolean;
  plan: string;
  /** null: every line of the team. */
  lines: string[] | null;
}

/** A seed, as far as the config reads it. */
export interface SeedLike {
  keys: SeedKeyLike[];
  teams: Array<{
    id: string;
    /** A team on the new contact model ('V2') holds custom fields; another ('LEGACY') answers TEAM_NOT_FOUND there. */
    contact_model: string;
    deals: Array<{ id: string; person_id?: string | null }>;
    people: Array<{ id: string; name?: string | null; last_name?: string | null }>;
    summary_templates: Array<{ id: string; active: boolean }>;
    built_in_fields: string[];
    threads: Array<{ id: string; entity_id: string }>;
    calls: Array<{ id: string; summaries?: Array<{ status: string }> }>;
    custom_fields?: Array<{ key: string; deleted: boolean }>;
    users?: Array<{ id: string; removed: boolean }>;
    messages: Array<{ id: string }>;
    notes: Array<{ id: string; svc_number?: string | null }>;
    calendars?: Array<{ calendar_connection_id: string }>;
  }>;
}

type TeamLike = SeedLike['teams'][number];

const usable = (k: SeedKeyLike) => !k.revoked && k.plan !== 'TRIAL' && k.lines === null;

/** The seed's first usable key holding every scope: the key a contract run uses. */
export function mainKeyOf<S extends SeedLike>(seed: S, allScopes: readonly string[]): S['keys'][number] {
  const main = seed.keys.filter(usable).find((k) => allScopes.every((s) => k.scopes.includes(s)));
  if (!main) throw new Error('The sandbox seed has no key holding every scope.');
  return main;
}

/** The demo key that holds exactly one scope (the sufficient-scope checks use it). */
export const singleScopeKeyOf = (scope: string) => `sbx_contract_only_${scope.toLowerCase()}`;

/** The demo key that holds every scope but an operation's (the insufficient-scope checks use it). */
export const allButScopesKeyOf = (scopes: readonly string[]) =>
  `sbx_contract_all_but_${[...scopes]
    .sort()
    .map((s) => s.toLowerCase())
    .join('__')}`;

/** What the scope keys are derived from: every scope, and each operation's security alternatives. */
export interface ScopeFacts {
  readonly scopes: Readonly<Record<string, string>>;
  readonly operations: ReadonlyArray<{ readonly security: ReadonlyArray<readonly string[]> }>;
}

/** Each distinct set of scopes an operation's security requirement names (its alternatives together), sorted. */
export function operationScopeSets(facts: ScopeFacts): string[][] {
  const sets = new Map<string, string[]>();
  for (const op of facts.operations) {
    const scopes = [...new Set(op.security.flat())].sort();
    if (scopes.length > 0) sets.set(scopes.join(' '), scopes);
  }
  return [...sets.values()];
}

/**
 * The seed with the keys the scope checks need, for the main key's team: one key per scope holding
 * exactly it (a server that demands another scope refuses it), and for each operation's scope set
 * one holding every other scope (a server that takes any other scope in place of the documented
 * one, or a scope of one resource for another's, lets it through: one request per operation finds
 * it, where keys of one or two scopes each would take a request per scope).
 */
export function withScopeKeys<S extends SeedLike>(seed: S, facts: ScopeFacts): S {
  const allScopes = Object.keys(facts.scopes);
  const main = mainKeyOf(seed, allScopes);
  const wanted = [
    ...allScopes.map((scope) => ({
      key: singleScopeKeyOf(scope),
      name: `svc-contract: ${scope} only`,
      scopes: [scope],
    })),
    ...operationScopeSets(facts).map((lacking) => ({
      key: allButScopesKeyOf(lacking),
      name: `svc-contract: every scope but ${lacking.join(', ')}`,
      scopes: allScopes.filter((scope) => !lacking.includes(scope)),
    })),
  ];
  const extra = wanted.filter((w) => !seed.keys.some((k) => k.key === w.key)).map((w) => ({ ...main, ...w }));
  return { ...seed, keys: [...seed.keys, ...extra] };
}

/** How a seed key is declared in the config: active (no kind), or the kind whose refusal it shows. */
function kindOf(k: SeedKeyLike): Pick<ContractConfigKey, 'kind' | 'lines'> {
  if (k.revoked) return { kind: 'revoked' };
  if (k.plan === 'TRIAL') return { kind: 'trial' };
  if (k.lines !== null) return { kind: 'line-limited', lines: [...k.lines] };
  return {};
}

/**
 * Usable keys of other teams: on the new contact model as 'other-team' keys (with one, the
 * cross-team checks address the main team's resources), the others as 'legacy-workspace' keys
 * (they answer TEAM_NOT_FOUND where the team's contact model is needed, which shows nothing about
 * tenancy but is a refusal of its own).
 */
function otherTeamKeys(seed: SeedLike, main: SeedKeyLike): ContractConfigKey[] {
  const onNewModel = new Set(seed.teams.filter((t) => t.contact_model === 'V2').map((t) => t.id));
  return seed.keys
    .filter((k) => k.team_id !== main.team_id && usable(k))
    .map((k) => {
      const team = seed.teams.find((t) => t.id === k.team_id);
      const base = { name: k.key, key: k.key, scopes: [...k.scopes] };
      if (!onNewModel.has(k.team_id)) return { ...base, kind: 'legacy-workspace' as const };
      return { ...base, kind: 'other-team' as const, ...(team ? { ids: unlistedIds(team) } : {}) };
    });
}

/** A team's ids that no list operation shows: its threads, notes, deals and people. */
function unlistedIds(team: TeamLike): string[] {
  return [...team.threads, ...team.notes, ...team.deals, ...team.people].map((r) => r.id);
}

/** The config the seed implies for its main team: the team's other keys, each with its kind, keys of another team, and the hidden ids. */
export function contractConfigOf(seed: SeedLike, allScopes: readonly string[]): SandboxContractConfig {
  const main = mainKeyOf(seed, allScopes);
  const team = seed.teams.find((t) => t.id === main.team_id);
  if (!team) throw new Error(`The sandbox seed has no team ${main.team_id}.`);
  return {
    server: CONTRACT_CONFIG_SERVER,
    api_key: main.key,
    config: {
      keys: [
        ...seed.keys
          .filter((k) => k !== main && k.team_id === main.team_id)
          .map((k) => ({
            name: k.key,
            key: k.key,
            scopes: [...k.scopes],
            ...kindOf(k),
            ...(k.owner_user_id ? { user_id: k.owner_user_id } : {}),
          })),
        ...otherTeamKeys(seed, main),
      ],
      fixtures: {
        deal_ids: team.deals.map((d) => d.id),
        person_ids: team.people.map((p) => p.id),
        summary_template_ids: templateIdsActiveFirst(team),
        built_in_field_keys: [...team.built_in_fields],
        // Every thread: no list shows them all, and described.order needs one with several comments.
        thread_ids: team.threads.map((t) => t.id),
        threadless_item_ids: threadlessItemIds(team),
        deleted_field_keys: (team.custom_fields ?? []).filter((f) => f.deleted).map((f) => f.key),
        inactive_summary_template_ids: team.summary_templates.filter((t) => !t.active).map((t) => t.id),
        removed_user_ids: (team.users ?? []).filter((u) => u.removed).map((u) => u.id),
        one_completed_summary_call_ids: oneCompletedSummaryCallIds(team),
        several_completed_summary_call_ids: severalCompletedSummaryCallIds(team),
        calendar_connection_ids: (team.calendars ?? []).map((c) => c.calendar_connection_id),
        no_completed_summary_call_ids: noCompletedSummaryCallIds(team),
        note_ids: linelessNotes(team).map((n) => n.id),
        ...personUpdateOf(team),
      },
    },
  };
}

/**
 * The person a run may rename and put back: one a deal links where there is one (its deal shows the
 * names too), renamed in both names so that an update applied to one of them shows; the search is
 * the sandbox's empty one, which lists the whole team.
 */
function personUpdateOf(team: TeamLike): { person_update?: SandboxPersonUpdate } {
  const linked = new Set(team.deals.map((d) => d.person_id));
  const person = team.people.find((p) => linked.has(p.id)) ?? team.people[0];
  if (!person) return {};
  const [name, lastName] = [person.name ?? null, person.last_name ?? null];
  return {
    person_update: {
      id: person.id,
      body: { name: `${name ?? 'Someone'}-svc`, last_name: `${lastName ?? 'Else'}-svc` },
      undo: { name, last_name: lastName },
      search: {},
    },
  };
}

/**
 * Calls whose summaries are mixed: exactly one completed, the others not (yet). Such a call is not
 * one that "has more than one completed summary", so it is answered without a template_key.
 */
export function oneCompletedSummaryCallIds(team: TeamLike): string[] {
  return team.calls
    .filter((c) => {
      const statuses = (c.summaries ?? []).map((s) => s.status);
      return statuses.filter((s) => s === COMPLETED).length === 1 && statuses.length > 1;
    })
    .slice(0, NAMED_PER_KIND)
    .map((c) => c.id);
}

/** Calls with more than one completed summary: read without a template_key, they are refused. */
export function severalCompletedSummaryCallIds(team: TeamLike): string[] {
  return team.calls
    .filter((c) => (c.summaries ?? []).filter((s) => s.status === COMPLETED).length > 1)
    .slice(0, NAMED_PER_KIND)
    .map((c) => c.id);
}

/** Calls with no completed summary (none yet, or only pending ones): read without a template_key, they are answered. */
export function noCompletedSummaryCallIds(team: TeamLike): string[] {
  return team.calls
    .filter((c) => !(c.summaries ?? []).some((s) => s.status === COMPLETED))
    .slice(0, NAMED_PER_KIND)
    .map((c) => c.id);
}

/** A summary's status once generated (the seed's word; the API shows no summary record). */
const COMPLETED = 'COMPLETED';

/** At most this many free items of each kind, and free templates, are named in one config. */
const NAMED_PER_KIND = 3;

const lineless = (note: { svc_number?: string | null }) => note.svc_number === null;

/** Notes on no line: a discovery by lines may miss them, and a thread on one takes its contact from the note. */
function linelessNotes(team: TeamLike): TeamLike['notes'] {
  return team.notes.filter(lineless);
}

/**
 * Items of the team no thread is on, a few of each kind, interleaved by kind (a call, a message,
 * a note, ...), so that one run's three creations show every entity_type; notes on no line first.
 */
export function threadlessItemIds(team: TeamLike): string[] {
  const threaded = new Set(team.threads.map((t) => t.entity_id));
  const free = (ids: string[]) => ids.filter((id) => !threaded.has(id)).slice(0, NAMED_PER_KIND);
  const kinds = [
    free(team.calls.map((c) => c.id)),
    free(team.messages.map((m) => m.id)),
    free([...linelessNotes(team), ...team.notes.filter((n) => !lineless(n))].map((n) => n.id)),
  ];
  const interleaved: string[] = [];
  for (let i = 0; i < NAMED_PER_KIND; i++)
    for (const ids of kinds) {
      const id = ids[i];
      if (id !== undefined) interleaved.push(id);
    }
  return interleaved;
}

/**
 * A few of the team's templates, the active ones first (each run deactivates one); when none is
 * left, deactivated ones, so that the operation's other checks still have an id to address.
 */
export function templateIdsActiveFirst(team: TeamLike): string[] {
  const active = team.summary_templates.filter((t) => t.active);
  const rest = team.summary_templates.filter((t) => !t.active);
  return (active.length > 0 ? active : rest).slice(0, NAMED_PER_KIND).map((t) => t.id);
}
