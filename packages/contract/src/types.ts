// The data the checks record and the reports are built from. Plain JSON: the JSON report holds it.

export type OutcomeStatus = 'passed' | 'failed' | 'skipped';

/**
 * Why a check was skipped: `option` the run's options left it out (--allow-writes, --burst,
 * --profile mock); `config` the configuration lacks what it needs (a fixture, a key); `n/a` the
 * contract gives it nothing to check here; `precondition` the check ran but never reached the state
 * its rule must be checked in (its description's `precondition`), so it is "not exercised", never
 * passed. Only `option` skips are free: the others count against --max-skipped.
 */
export type SkipKind = 'option' | 'config' | 'n/a' | 'precondition';
export const SKIP_KINDS: readonly SkipKind[] = ['option', 'config', 'n/a', 'precondition'];

export interface CheckOutcome {
  check: string;
  /** The operation the check concerns, or API_WIDE. */
  operationId: string;
  status: OutcomeStatus;
  /** Why it failed, or why it was skipped; for a pass, what was exercised (optional). */
  detail?: string;
  /** Sequence number of the exchange that shows the failure (see ExchangeSummary). */
  exchange?: number;
  /** Passes of the same check on the same operation within one test are counted, not repeated (and the proxy counts the failures it does not keep). */
  count?: number;
  /** For a skip: why (see SkipKind). */
  skipKind?: SkipKind;
  /** For a pass: the documented request constraint it exercised, and from which side. */
  constraint?: { id: string; side: 'inside' | 'outside' };
  /** For a pass where the description is open (x-svc-ambiguity, -unspecified, -inferred): the readings it accepted. */
  readings?: string;
  /** For a failure: what the check expected, so that a new answer can be judged again (replay, export). */
  expected?: FailedExpectation;
  /** For a per-exchange check's failure on a request a rule sent itself: that rule (see MadeBy). */
  madeBy?: MadeBy;
}

/**
 * The rule whose own sequence of requests sent an exchange a per-exchange check failed on. When
 * that rule changes data (`writes`), the answer may hang on what its sequence (or the run before
 * it) built, which one request sent again alone does not rebuild: replay runs the rule again and
 * judges the check on the answers of that run. A rule that only reads leaves what it found as it
 * was, so its request is sent again alone, as one no rule sent.
 */
export interface MadeBy {
  check: string;
  operationId: string;
  /** The rule changes data (it runs only with --allow-writes). */
  writes?: boolean;
}

/**
 * What a failed check expected of the answer its exchange got. `exchange`: a per-exchange check,
 * called again on a new answer. `answer`: a scenario rule's expected answer, `answers` (a status
 * with any of its codes; no codes: any) or any 2xx (`success`). `state`: a scenario rule that
 * judged more than one answer or what the server holds: no single answer is expected, so its
 * failure is not judged again (replay and export say so).
 */
export interface FailedExpectation {
  judge: 'exchange' | 'answer' | 'state';
  answers?: Array<{ status: number; codes?: string[] }>;
  success?: boolean;
}

/** The key a request used, by name and kind, never by value: replay and export read it from the environment. */
export interface KeyRef {
  /** `api-key` for the run's own key, else the config key's name; `unknown` for a made-up key (sent as recorded). */
  name: string;
  /** Absent for a made-up key. */
  kind?: KeyKind;
  /** The environment variable it was read from (the run's --api-key: SVC_API_KEY). */
  env?: string;
}

/** One request and its response, redacted, kept for the failures that refer to it (curl). */
export interface ExchangeSummary {
  seq: number;
  operationId: string | null;
  method: string;
  url: string;
  /** Request headers as sent, with every key replaced by a placeholder. */
  headers: Record<string, string>;
  body?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  requestId?: string;
  error?: string;
  durationMs: number;
  /** When the request left (ISO 8601), for the HAR reporter. */
  startedAt?: string;
  /** The key of the request's Authorization, by name and kind (absent: none, or a header written whole). */
  key?: KeyRef;
}

/** (operation, status, code) seen in a response: the raw material of the coverage table. */
export interface Observation {
  operationId: string | null;
  status: number;
  code?: string;
}

/** The documented inputs one operation's exchanges exercised (reach/inputs.ts ids). */
export interface InputObservation {
  operationId: string;
  /** Inputs carried by a request that succeeded. */
  sent: string[];
  /** Validation rules a refused request broke alone. */
  broke: string[];
}

/** What one check recorded: its assertions and those of every response it caused. */
export interface TestRecord {
  outcomes: CheckOutcome[];
  exchanges: ExchangeSummary[];
  observations: Observation[];
  /** Documented inputs its requests exercised, per operation (absent: none). */
  inputs?: InputObservation[];
  requests: number;
  /** Of those, reads and writes as the rate limits count them (the pacing floor's request mix). */
  reads?: number;
  writes?: number;
  /** The check that made it needs a server that keeps state or tells keys apart (what --profile mock skips). */
  stateful?: boolean;
}

export type Profile = 'full' | 'mock';

export interface RateSetting {
  readsPerSecond: number;
  writesPerSecond: number;
}

/**
 * What a config key is: `active` (the default) serves the scope checks by the scopes it holds;
 * the others are declared so that the checks of their own refusal run: `revoked`
 * (API_KEY_REVOKED), `trial` (a trial-plan account: API_KEY_TRIAL_NOT_ALLOWED), `line-limited`
 * (limited to `lines`: SVC_NUMBER_FORBIDDEN on any other line), `other-team` (a key of another
 * team: the run's team's resources are not found with it, and no answer carries them),
 * `legacy-workspace` (a key of a workspace not on the new contact model: TEAM_NOT_FOUND where
 * an operation lists it).
 */
export type KeyKind = 'active' | 'revoked' | 'trial' | 'line-limited' | 'other-team' | 'legacy-workspace';
export const KEY_KINDS: readonly KeyKind[] = [
  'active',
  'revoked',
  'trial',
  'line-limited',
  'other-team',
  'legacy-workspace',
];

/** A key from the config file: what it holds decides which 403 checks it can serve. */
export interface ConfigKey {
  name: string;
  key: string;
  scopes: string[];
  /** The environment variable the key was read from (named in curl reproductions). */
  env?: string;
  /** Default active. */
  kind?: KeyKind;
  /** The lines (E.164) a line-limited key may access. */
  lines?: string[];
  /**
   * Of a key of another team: ids of that team's resources (a thread, a note, a deal) that no list
   * its key reads shows, for tenants.other-teams-read (the lists' ids are read too).
   */
  ids?: string[];
  /** The member of the team the key belongs to: the one is_current_user names when it reads (receptionist.current-user). */
  user_id?: string;
}

/** The config's fixture lists (threadless_item_ids: items or notes with no thread yet, threads.create-content-limits creates one thread on each of two; teammate_emails: emails of teammates other than the key's owner, where GET /v2/api/users shows none; removed_user_ids: members since removed from the team; deleted_field_keys, inactive_summary_template_ids (templates deactivated before the run), one_completed_summary_call_ids and several_completed_summary_call_ids: states no operation can reach; no_completed_summary_call_ids: calls with no completed summary; calendar_connection_ids: the team's connected calendars, which the API lists through an operation whose method and path are not shown). */
export const FIXTURE_LISTS = [
  'deal_ids',
  'person_ids',
  'summary_template_ids',
  'built_in_field_keys',
  'user_ids',
  'lines',
  'contact_numbers',
  'item_ids',
  'note_ids',
  'thread_ids',
  'threadless_item_ids',
  'custom_field_keys',
  'teammate_emails',
  'removed_user_ids',
  'deleted_field_keys',
  'inactive_summary_template_ids',
  'one_completed_summary_call_ids',
  'several_completed_summary_call_ids',
  'calendar_connection_ids',
  'no_completed_summary_call_ids',
] as const;

/**
 * A person update the server may apply and its undo (fixtures.person_update): the update's body is
 * not shown, so only the config can name one that is safe to send and how to put it back. `search`
 * is a people search whose answer shows the person (default: the contract's example).
 */
export interface PersonUpdateFixture {
  id: string;
  body: Record<string, unknown>;
  undo: Record<string, unknown>;
  search?: Record<string, unknown>;
}

export type ConfigFixtures = { [list in (typeof FIXTURE_LISTS)[number]]?: string[] } & {
  search_query?: string;
  person_update?: PersonUpdateFixture;
};

export interface ContractConfig {
  keys: ConfigKey[];
  fixtures: ConfigFixtures;
}

/** Everything the checks of one run need to know about it. */
export interface SessionConfig {
  baseUrl: string;
  apiKey: string;
  /** Env variable holding the main key, named in curl reproductions. */
  apiKeyEnv: string;
  config: ContractConfig;
  profile: Profile;
  allowWrites: boolean;
  burst: boolean;
  /**
   * Other clients use the run's key too (--shared-key: one-key shards): its 429s are waited out
   * without blame. Otherwise the run owns its key, and a 429 within its own budget fails
   * response.rate-limit-budget.
   */
  sharedKey?: boolean;
  /** Filters: resources, operationIds or check ids (prefixes). Empty: everything. */
  only: string[];
  /** null: no client-side rate limiting. */
  rate: RateSetting | null;
  timeoutMs: number;
  /** Largest response body read; a larger one is a failed response.transport check. */
  maxResponseBytes?: number;
  /** Longest time one request may spend waiting out 429s, in all, before giving up on it. */
  maxRetryWaitSeconds: number;
  /** Unique per run: names probe data and idempotency keys. */
  runId: string;
  /** How many fixtures of each kind the checks use at most (--fixtures-per-kind, default 20). */
  fixturesPerKind?: number;
  /** The server is a sandbox (embedded, or its config came from it): a used-up fixture comes back by restarting it. */
  sandbox?: boolean;
}

/** What a check needs of the run; without it the check is skipped by option. */
export interface Needs {
  /** Changes data: only with --allow-writes. */
  writes?: boolean;
  /** Depends on what the server holds: profile full only. */
  stateful?: boolean;
  /** Needs a server that tells keys apart (unknown keys, scopes): profile full only. */
  keys?: boolean;
  /** Opt-in with --burst. */
  burst?: boolean;
}

/** Where a check belongs: the operation its verdict concerns (or API_WIDE) and its resource. */
export interface Where {
  operationId: string;
  resource: string;
  /** Tells checks of the same id on one operation apart (e.g. the method of a replay) where one crashes. */
  variant?: string;
}

/** What a rule's pass exercised, for the report: a detail, the documented constraint, the readings accepted. */
export interface Held {
  detail?: string;
  /** The documented request constraint exercised (input coverage). */
  constraint?: CheckOutcome['constraint'];
  /** Where the description is open, the readings the pass accepted. */
  readings?: string;
}

/** Fixtures as discovery finds them (fixtures.ts gathers them). */
export interface ItemFixture {
  id: string;
  /** The ThreadEntityType of the item (CALL, TEXT_MESSAGE, CONVERSATION_NOTE). */
  entityType: string;
}

export interface ThreadFixture {
  id: string;
  entityType: string;
  entityId: string;
}

export interface CustomFieldFixture {
  key: string;
  label: string | null;
  type: string | null;
  options?: Array<{ key: string; label: string }>;
  source?: string;
  /** Where the list shows one (it need not). */
  description?: string;
}
