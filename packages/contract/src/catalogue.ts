// Every check the suite can report, by id, with what it is: the table below is written by
// `pnpm rules:write` from the checks' own descriptions (each rule() entry, and the modules that
// make the other checks: check-descriptions.ts), so a check is described once, where it is
// written. The ids are stable: CI dashboards, the JSON report and the package's own mutation
// tests refer to them. test/rules-written.test.ts fails when the table is stale.
import { describedCheck, describedChecks } from './check-descriptions.js';

export interface CheckInfo {
  title: string;
  /** Where the expectation comes from, for the README and the report. */
  source: string;
  /** The spec's statements the check enforces, by rule id (reach/rules.ts). */
  enforces?: readonly string[];
  /** The state the check must reach first (check-descriptions.ts). */
  precondition?: string;
}

// BEGIN the table `pnpm rules:write` writes from the checks' descriptions: edit those, not this.
// biome-ignore format: written by pnpm rules:write
export const CHECKS = {
  "auth.insufficient-scope": {
    title: "A key lacking the scope: 403 API_KEY_INSUFFICIENT_SCOPE naming the scope",
    source: "security requirement scopes + 403 response: \"Key lacking the scope: HTTP 403, type permission_error, code API_KEY_INSUFFICIENT_SCOPE\"",
    precondition: "a key of the team lacking every scope alternative of the operation, and, where the config has them, the keys holding the neighbouring scope (for a write, every key holding the read scope of the same resource but not the write scope, else one holding another resource's scope of the same access; for a read, every key holding the plain write scope of the same resource, and one holding another resource's read scope), and the key with the most scopes lacking the operation's (config keys with their scopes; the embedded and started sandboxes declare one per scope, and one per operation holding every scope but its own)",
  },
  "auth.line-forbidden": {
    title: "A line-limited key (declared in --config) on another line: 403 SVC_NUMBER_FORBIDDEN",
    source: "the 403 response + the catalogue",
    precondition: "a line of the team outside the lines of a line-limited key (a config key of kind line-limited)",
  },
  "auth.line-of-other-team": {
    title: "The run's key, which may use every line of its team, on a line of another team (GET /v2/api/numbers with the other team's key declared in --config): 403 SVC_NUMBER_FORBIDDEN",
    source: "Authentication: \"A key belongs to a single team\" and \"A line the key may not access: 403 SVC_NUMBER_FORBIDDEN\"; SVC_NUMBER_FORBIDDEN \"No access to this line; list lines with GET /v2/api/numbers\"",
    precondition: "a line that is no line of the team: one GET /v2/api/numbers shows a key of another team (a config key of kind other-team), and the team's own list does not",
  },
  "auth.malformed-header": {
    title: "Malformed Authorization header, or the run's valid key in a scheme other than Api-Key: 401 with a listed code",
    source: "security scheme + 401 response: \"Every request carries an API key in the Authorization header, in the form Authorization: Api-Key <API_KEY>\"",
    precondition: "a request the server must refuse: an Authorization header of another scheme (the run's valid key among them), or no key after Api-Key",
  },
  "auth.missing-key": {
    title: "No key: 401 with a code the operation lists, before any lookup (an unknown id too)",
    source: "security + 401 response",
    precondition: "a request the server must refuse: no Authorization header, on the baseline and, where the operation takes an id, on an unknown id",
  },
  "auth.revoked-key": {
    title: "A revoked key (declared in --config): 401 API_KEY_REVOKED",
    source: "the 401 response + the catalogue",
    precondition: "a revoked key of the team (a config key of kind revoked)",
  },
  "auth.scope-before-replay": {
    title: "A key lacking the scope, sending the Idempotency-Key of another key's stored write: 403 API_KEY_INSUFFICIENT_SCOPE, not the stored response",
    source: "Authentication: \"Key lacking the scope: HTTP 403, type permission_error, code API_KEY_INSUFFICIENT_SCOPE\"; Idempotency 3 (the replay of a request the key may make)",
    precondition: "a conversation action sent with a key by the run's key (stored), then the same request and Idempotency-Key by a key of the team holding none of the action's scopes",
  },
  "auth.sufficient-scope": {
    title: "A key holding exactly the documented scope is not refused for scope (success, or a documented non-scope error)",
    source: "security requirement scopes",
    precondition: "a key holding exactly the operation's scope (a config key with its scopes; the embedded and started sandboxes declare one per scope)",
  },
  "auth.trial-plan": {
    title: "A key of a trial plan (declared in --config): 403 API_KEY_TRIAL_NOT_ALLOWED",
    source: "the 403 response + the catalogue",
    precondition: "a key of an account on a trial plan (a config key of kind trial)",
  },
  "auth.unknown-key": {
    title: "Unknown key: 401 with a listed code, before any lookup (an unknown id too); the run's key in another case is unknown too",
    source: "401 response; API_KEY_INVALID \"Key invalid or does not exist\"",
    precondition: "a request the server must refuse: a key no team holds, on the baseline and, where the operation takes an id, on an unknown id; the run's key with each letter's case swapped, on the baseline",
  },
  "boundary.inside": {
    title: "Values at each documented limit (page and size at their bounds, strings and lists of exactly the maximum) are accepted; a string at its maximum holds apostrophes, \"&\", quotes, \"<>\" and \"é\" where its pattern allows them",
    source: "minimum/maximum, minLength/maxLength, maxItems",
    precondition: "requests with one value exactly at each documented limit, the rest valid",
  },
  "conformance.empty-update": {
    title: "A partial update whose fields are all optional, sent none of them ({}), succeeds",
    source: "x-svc-merge-rules with no required field: \"All body fields are optional\" (updateCustomField), \"All fields are optional; only supplied fields are touched\" (the dialer queue), omitted values and collections kept (the receptionist)",
    precondition: "the operation's valid request (the baseline's path) with an empty body",
  },
  "conformance.success": {
    title: "A valid request succeeds (2xx)",
    source: "the operation's success response",
    precondition: "a valid request built from the fixtures (the baseline)",
  },
  "conversation-items.batch-selected": {
    title: "A batch of items each found by id shows each of them, and only them: no item left out, none not asked for, nothing else among the items (in whatever envelope the unshown answer uses)",
    source: "POST /v2/api/conversations/items/batch \"At most 100 items per batch\" (a read of the items sent); Identifier prefixes (Call cll-, Text message msg-)",
    precondition: "items each read by id first (a 2xx, or a call's refusal for want of a template_key): the conversations' last items and the calls the config names for their summaries, one with no completed summary among them",
  },
  "conversation-items.no-completed-summary": {
    title: "A call with no completed summary (named in --config) is answered without template_key: a success, never a refusal or a 5xx",
    source: "SUMMARY_TEMPLATE_KEY_REQUIRED: \"Call has more than one completed summary; set template_key\"; getConversationItem: \"optional template_key selects a summary\"",
    precondition: "a call with no completed summary (fixtures.no_completed_summary_call_ids: summaries are not readable through the API, and such a call is never the one the lists show)",
  },
  "conversation-items.one-completed-summary": {
    title: "A call with one completed summary and others pending (named in --config) is answered without template_key, not refused with SUMMARY_TEMPLATE_KEY_REQUIRED",
    source: "SUMMARY_TEMPLATE_KEY_REQUIRED: \"Call has more than one completed summary; set template_key\"; getConversationItem: \"optional template_key selects a summary\"",
    precondition: "a call with exactly one completed summary and others pending (fixtures.one_completed_summary_call_ids: summaries are not readable through the API)",
  },
  "conversation-items.parameters-compose": {
    title: "extend and template_key compose: the fields extend adds to a call read alone, it adds when template_key is given too, and the pair is answered 2xx",
    source: "getConversationItem: \"optional extend=transcript; optional template_key selects a summary\" (two optional parameters, neither said to exclude the other)",
    precondition: "a call with one completed summary (fixtures.one_completed_summary_call_ids), read 2xx with a documented template key, without parameters and with each documented extend value; then with both",
  },
  "conversation-items.search": {
    title: "The item search for a prefix of a word of an item, for the word wrapped in special characters, and for the word with one inside it (stripped, the word again), answers an item; for the word less its first letters, not that item unless it shows a word starting with them; for the word and a word no item holds, none; special characters only, and blanks only, are 400 INVALID_SEARCH_QUERY; a search that finds several entries, read a page of one entry at a time, holds on each page a different entry it found",
    source: "POST /v2/api/conversations/items/search: \"Keyword search of items\"; INVALID_SEARCH_QUERY: \"search needs at least one alphanumeric character; special characters are stripped; words combined with AND and prefix-matched\". The answer's shape is not shown: an item is any value with an item id prefix (cll-, msg-), wherever it is",
    precondition: "a word of a last item's summary (the conversation list) whose search alone answers an item id, and a query of non-ASCII special characters only, which the contract's pattern lets through, and one of blanks only",
  },
  "conversation-items.several-completed-summaries": {
    title: "A call shown to have more than one completed summary (two template keys each read one) is refused without template_key: 400 SUMMARY_TEMPLATE_KEY_REQUIRED",
    source: "SUMMARY_TEMPLATE_KEY_REQUIRED: \"Call has more than one completed summary; set template_key (e.g. MARKDOWN_CLASSIC or MARKDOWN_SHORT_CALL)\"; SUMMARY_TEMPLATE_NOT_FOUND: \"On item fetch: no completed summary for the requested template_key\"",
    precondition: "a call with more than one completed summary, shown through the API: read with two documented template keys, each answered 2xx (the calls of fixtures.several_completed_summary_call_ids first, then the calls discovery found)",
  },
  "conversation-items.template-key-selects": {
    title: "template_key selects the summary: a call shown to hold a completed summary, read with a template_key no template has, is 404 SUMMARY_TEMPLATE_NOT_FOUND, never answered with another summary; read with a documented key, its answer names no other documented key",
    source: "getConversationItem: \"optional template_key selects a summary\"; SUMMARY_TEMPLATE_NOT_FOUND: \"On item fetch: no completed summary for the requested template_key\"",
    precondition: "a call shown through the API to hold a completed summary (read 2xx with a documented template key), then read with a template key made up for the run",
  },
  "conversations.action-idempotent": {
    title: "Every conversation action repeated is a 200 no-op: the same answer, and the conversation's list entry unchanged",
    source: "ConversationAction x-svc-transitions",
    enforces: ["x-svc-transitions action READ (any → read)","x-svc-transitions action UNREAD (any → unread)"],
    precondition: "a conversation already in each action's target state: each action sent twice, the list read after each",
  },
  "conversations.action-on-line": {
    title: "An action scoped to each line of the team (svc_number) is accepted",
    source: "ConversationActionRequest.svc_number: when given, only to that line",
    precondition: "each line of the team (up to --fixtures-per-kind) and a conversation to act on",
  },
  "conversations.action-one-line": {
    title: "An action given a line (svc_number) leaves the same contact's conversation on another line as it was, and without svc_number changes it on every line (the action to read or to unread, whichever would change the other line); given the line, the actions to archived and to unarchived change it there and nothing on the other line (its entry, its items' read states; archived on every line, then unarchived given one, the other stays archived), and the action to unread makes it unread while archived; each line is put back",
    source: "States and transitions: \"When svc_number is omitted the action applies across all of the team's lines; when given, only to that line\"",
    precondition: "a contact with a conversation on two of the team's lines (each line's list, svc_number), whose entries show a read state",
  },
  "conversations.archive": {
    title: "ARCHIVE then UNARCHIVE succeed, each repeatable; the archived conversation and its items read back so, UNARCHIVE straight after ARCHIVE leaves it read, and UNREAD and READ sent while archived leave it archived",
    source: "ConversationAction x-svc-transitions",
    enforces: ["x-svc-transitions action ARCHIVE (any → archived)","x-svc-transitions action UNARCHIVE (archived → unarchived)"],
    precondition: "a conversation of the team with an unread item where the fixtures show one (its items read singly before and after ARCHIVE), made unread first where its list entry reads read; archived, unarchived straight away, archived again, sent UNREAD then READ while archived, then unarchived",
  },
  "conversations.replay-not-rerun": {
    title: "A keyed action sent again after its opposite is replayed, not run again: the conversation keeps the state the opposite left",
    source: "Idempotency 3: \"returns the stored response with the header Idempotency-Replayed: true, and the operation is not re-executed\"",
    precondition: "a conversation whose list entry shows its read state: the action to read with a key, the action to unread without one, the first again with its key (put back after)",
  },
  "conversations.search": {
    title: "The conversation list searched: a word an entry shows, a prefix of it, and the word with special characters around it find the entry; the word less its first letters finds it only where it starts another word the entry shows; the word and a word no entry holds find none; special characters only, and blanks only, are 400 INVALID_SEARCH_QUERY; a search that finds several entries, read a page of one entry at a time, holds on each page a different entry it found",
    source: "GET /v2/api/conversations: \"optional line filter and search\"; INVALID_SEARCH_QUERY: \"search needs at least one alphanumeric character; special characters are stripped; words combined with AND and prefix-matched\". Which fields the search matches is not shown (x-svc-unspecified): the words come from each field the entry shows, in turn",
    precondition: "an entry of the conversation list found by a search for a whole word it shows (a contact's name, else the company's, the last item's summary, the contact number), and a search of non-ASCII special characters only, which the contract's pattern lets through, and one of blanks only; a search finding several entries in one page (a prefix entries share), then read a page of size 1 at a time",
  },
  "conversations.search-on-line": {
    title: "The conversation list searched and filtered by line at once lists only entries that match both",
    source: "GET /v2/api/conversations: \"optional line filter and search\" (each narrows the list)",
    precondition: "a contact listed on one line, absent from another line's whole list, found by a search for a word its entry shows; that search sent with the other line's filter; and an entry of the contact's line that the search alone leaves out of its whole answer, that search then sent with the contact's line's filter",
  },
  "custom-fields.built-in": {
    title: "A built-in field key cannot be updated (400 ATTRIBUTE_BUILT_IN), each one the description or the config names",
    source: "updateCustomField 400 ATTRIBUTE_BUILT_IN; \"Built-in fields such as name or company are not custom fields\"",
    precondition: "a request the server must refuse: each built-in field key, the description's examples (name, company) and fixtures.built_in_field_keys",
  },
  "custom-fields.deleted": {
    title: "A deleted custom field (named in --config) is 404 ATTRIBUTE_NOT_FOUND by its key and not listed",
    source: "updateCustomField 404 ATTRIBUTE_NOT_FOUND: \"no field with this key, or it was deleted\"",
    precondition: "a custom field the team deleted (fixtures.deleted_field_keys: no operation deletes one)",
  },
  "custom-fields.description": {
    title: "A description is set, and a blank value clears it (\"description: settable on update; a blank value clears it\"): read back absent, null or empty, never the blank sent; a label sent in the same update is applied too",
    source: "UpdateCustomFieldRequest x-svc-input-rules blank-clears",
    enforces: ["x-svc-input-rules blank-clears description"],
    precondition: "an editable field whose answers or list entry show its description (set, then cleared, then put back; where neither shows it, skipped as not observable)",
  },
  "custom-fields.key-and-type-immutable": {
    title: "Another key or type sent to a custom field is refused or ignored: the field's key and type never change",
    source: "Custom contact field: key \"Unique key; immutable\", type \"…; immutable\"; option rules: \"key and type cannot be changed.\"",
    enforces: ["x-svc-option-rules KEY_AND_TYPE_IMMUTABLE"],
    precondition: "an editable custom field with a type, sent another type then another key (each alone) before the whole list is read",
  },
  "custom-fields.label-any-script": {
    title: "A label whose letters are all outside ASCII (Greek, CJK) is a label with letters: accepted and listed as sent",
    source: "updateCustomField label: \"must contain a letter or digit\" (CustomFieldLabel: letters and digits of any script count); ATTRIBUTE_LABEL_INVALID \"without letter/digit\"",
    precondition: "an editable custom field with a label, relabelled \"Ωμέγα座席\" before the whole list is read (put back after)",
  },
  "custom-fields.label-digits-only": {
    title: "A label of digits alone (no letter) is a label with a digit: accepted and listed as sent",
    source: "updateCustomField label: \"must contain a letter or digit\"; ATTRIBUTE_LABEL_INVALID \"without letter/digit\"",
    precondition: "an editable custom field with a label, relabelled \"2024\" before the whole list is read (put back after)",
  },
  "custom-fields.label-listed": {
    title: "A label changed through PATCH shows in the custom field list, as the team's other keys that may list it read it too (read before the change), and the label put back shows there after",
    source: "listCustomFields: \"Each list item shows key, label and type\"; updateCustomField label: \"New display name\"; \"A key belongs to a single team\"",
    precondition: "an editable custom field with a label, given a new label before the whole list is read (put back after); the team's other keys that may list the fields (--config) list them before the change, after it and after it is put back",
  },
  "custom-fields.managed-by-integration": {
    title: "A field synced from an integration cannot be updated (409), whichever field of it is sent",
    source: "CustomField source: \"Any other value means the field is synced from a CRM integration and is read-only.\"",
    precondition: "a request the server must refuse: a field synced from an integration (its source not the service's own), each field of the update sent alone with the value it holds",
  },
  "custom-fields.option-invalid": {
    title: "Duplicate option labels are refused with the documented code",
    source: "x-svc-option-rules LABEL_UNIQUE",
    enforces: ["x-svc-option-rules LABEL_UNIQUE"],
    precondition: "requests the server must refuse: an editable DROPDOWN field sent two new options with one label, side by side; and its options with a new one, last, labelled as the first (a server may compare neighbours only)",
  },
  "custom-fields.option-labels-swapped": {
    title: "Two options trading labels (each kept by its key) is a list of unique labels: accepted, each key with its new label, then put back",
    source: "x-svc-option-rules LABEL_UNIQUE, RENAME_BY_KEY (\"Replaces the full option list\")",
    precondition: "an editable DROPDOWN field with two options at least, sent with the labels of the first two swapped",
  },
  "custom-fields.option-rules": {
    title: "Options: new ones get a key, rename by key (the old label free again), missing ones are removed and stay removed (\"An option sent without a matching key is new and gets a key derived from its label\"): several new options in one request, a label spelling a kept key and a key matching no option included, every key distinct, a label sent again (last) keyed as when it was sent alone",
    source: "x-svc-option-rules",
    enforces: ["x-svc-option-rules RENAME_BY_KEY","x-svc-option-rules NEW_WITHOUT_MATCHING_KEY","x-svc-option-rules REMOVE_MISSING","x-svc-merge-rules custom-field replaced"],
    precondition: "an editable DROPDOWN field with at least one option (created through the service): a new option added, renamed, its old label given to another new option, both removed, then the label sent alone; new options added four at once (a label spelling a kept key, a key matching no option, the first new label again)",
  },
  "custom-fields.options-listed": {
    title: "An option renamed through PATCH shows in the custom field list with its new label (the list read before and after)",
    source: "updateCustomField options: \"Replaces the full option list\"; \"To rename an option, send its current key with the new label\"; listCustomFields options \"Present for DROPDOWN fields\"",
    precondition: "an editable custom field with options, the whole list read (showing its options: where it shows none, skipped as not observable), its first option renamed (its key with a new label), the list read again; the options put back after",
  },
  "custom-fields.options-not-supported": {
    title: "Options on a field of a type without options are refused, an empty list of them too",
    source: "x-svc-option-rules DROPDOWN_ONLY; CustomFieldResponse (options required for DROPDOWN)",
    enforces: ["x-svc-option-rules DROPDOWN_ONLY"],
    precondition: "a request the server must refuse: options sent to an editable field of each type without options (a server may drop them on one type only), and an empty options list sent to one of them",
  },
  "custom-fields.partial-update": {
    title: "Only the fields sent change: the label sent alone keeps the options and a description set first, and the description sent alone next keeps the new label",
    source: "UpdateCustomFieldRequest",
    enforces: ["x-svc-merge-rules custom-field merged","x-svc-merge-rules custom-field replaced"],
    precondition: "the fields the label leaves untouched hold values a faulty reset would not write: the field's options, and a description set first (where the answers show it); then an update after the label's, sending the description alone",
  },
  "deals.money-names-agree": {
    title: "A deal that states its monetary value under both names (amount and value) states the same value in both",
    source: "Deal: the response example shows \"amount | number\", the field table \"value (monetary value)\" instead; \"a builder may emit both amount/value and closed_at/close_date\"",
    precondition: "the deals of the config (fixtures.deal_ids) read by id; a deal answered with both names",
  },
  "described.error-mentions": {
    title: "An error the contract says names something (kind error-mentions) names it in the stated field",
    source: "x-svc-response-rules (kind error-mentions)",
    enforces: ["x-svc-response-rules MISSING_PARAMETER_NAMED","x-svc-response-rules FAILING_VALUE_IN_MESSAGE"],
    precondition: "a request the server must refuse for each error-mentions rule: one broken value per read",
  },
  "described.excludes": {
    title: "A list the contract says omits some values (kind excludes) holds none of them, on any page",
    source: "x-svc-response-rules (kind excludes) + fixtures.built_in_field_keys",
    enforces: ["x-svc-response-rules BUILT_IN_FIELDS_NOT_LISTED"],
    precondition: "the whole custom field list and the built-in keys (the description's examples and fixtures.built_in_field_keys)",
  },
  "described.order": {
    title: "A list the contract orders (kind order) comes in that order in every response read",
    source: "x-svc-response-rules (kind order)",
    enforces: ["x-svc-response-rules COMMENTS_IN_CREATION_ORDER"],
    precondition: "a thread with two comments or more (fixtures.thread_ids, or discovered threads)",
  },
  "dialer-queues.by-email": {
    title: "A teammate's email sent without user_id selects that teammate's queue, and a change sent so leaves the key owner's queue as it was",
    source: "UpdateDialingQueueRequest email: \"Optional. Teammate's email; used only when user_id is absent.\" (PATCH /v2/api/dialing-queues/current)",
    enforces: ["x-svc-input-rules precedence user_id, email"],
    precondition: "a teammate other than the key's owner, named by email alone (fixtures.teammate_emails, or GET /v2/api/users where its entries show emails, else each user read by id); then named with a new queue name, the key owner's queue read again (its name put back after)",
  },
  "dialer-queues.each-value": {
    title: "Each enum value of the queue's settings is applied and answered; user_id wins over email",
    source: "UpdateDialingQueueRequest enums + x-svc-input-rules precedence",
    enforces: ["x-svc-input-rules precedence user_id, email"],
    precondition: "the queue of the key's owner, each setting sent each of its values; for the precedence, the queue's own assignee (user_id) with an email matching no one",
  },
  "dialer-queues.key-owner": {
    title: "Each key's update naming no teammate reaches its own owner's queue, whoever owns the run key; that owner's queue renamed by the run key (user_id) reads renamed through the owner's own key",
    source: "PATCH /v2/api/dialing-queues/current: \"creates or updates the config of the queue of the API key owner\"",
    precondition: "another key of the team that may write the queue whose owner (its config entry's user_id) is not the run key's owner, sending an empty update; then its owner's queue renamed by the run key naming that user_id (the name put back after)",
  },
  "dialer-queues.other-caller": {
    title: "Another key of the team updating the run key's queue with user_id alone touches nothing: every field (creator_id too) as the run key's empty update showed it",
    source: "PATCH /v2/api/dialing-queues/current: \"All fields are optional; only supplied fields are touched\"; user_id: \"Teammate whose queue is changed\"",
    enforces: ["x-svc-merge-rules dialer-queue merged"],
    precondition: "another key of the team that may write the queue (a config key holding the operation's scope: a line-limited one and an active one), sending the queue's assignee as user_id",
  },
  "dialer-queues.owner-by-default": {
    title: "An update naming no teammate changes the key owner's queue, also right after one that named a teammate",
    source: "PATCH /v2/api/dialing-queues/current: \"creates or updates the config of the queue of the API key owner\"; user_id: \"Optional. Teammate whose queue is changed\"",
    precondition: "a teammate other than the key's owner (GET /v2/api/users; by email: fixtures.teammate_emails or the list), named by user_id, then by email, each followed by an update of the name naming no one and the teammate's queue read again",
  },
  "dialer-queues.partial-update": {
    title: "Only the fields sent are touched: a name sent alone, and each setting sent alone, leave the rest of the queue as it was, with each setting at either of its values",
    source: "UpdateDialingQueueRequest (all fields optional)",
    enforces: ["x-svc-merge-rules dialer-queue merged"],
    precondition: "the queue has number entries, and each enum setting (do_not_disturb, voicemail_handling) holds, while the name or another setting is sent alone, first the value found, then another value it was moved to first (put back after)",
  },
  "dialer-queues.unknown-assignee": {
    title: "An unknown teammate is 404 ASSIGNEE_NOT_FOUND: a user_id or an email matching no one, a member removed from the team",
    source: "UpdateDialingQueueRequest user_id (\"must belong to the same team\"); 404 ASSIGNEE_NOT_FOUND \"when no teammate matches user_id or email\"",
    precondition: "a request the server must refuse: a user_id, then an email, matching no teammate; then the id of each member removed from the team (fixtures.removed_user_ids: no operation removes one)",
  },
  "fixtures.discovery": {
    title: "Every discovery request (the lists the fixtures come from) succeeds",
    source: "the list operations' success responses",
    precondition: "any discovery request (the lists the fixtures come from)",
  },
  "idempotency.failed-not-consumed": {
    title: "A failed request does not consume its key: the same key on a request that succeeds is executed, not replayed",
    source: "IdempotencyKeyParameter (\"When the request fails (4xx or 5xx), the key is not consumed and can be retried\")",
    precondition: "a keyed request that failed, then the same key on a valid request: a blank comment (twice), then a comment; a DELETE of a tag the item does not carry (404), then the same DELETE once the tag is added; another such failed DELETE's key then sent on the add (another endpoint)",
  },
  "idempotency.kept": {
    title: "A keyed write's stored response is kept: each key of the run's replay checks, sent again at the run's end (3 s or more after its first use), is still replayed",
    source: "IdempotencyKeyParameter (\"When the request succeeds (2xx) its response is stored for 1 hour\"); Limits: idempotency storage 1 hour",
    precondition: "keyed writes made earlier in the run by the replay checks (idempotency.replay; where none ran, a keyed conversation action of its own), each sent again at least 3 s after the last of them",
  },
  "idempotency.key-reuse": {
    title: "The same key on another endpoint or with another method is 409 IDEMPOTENCY_KEY_REUSE",
    source: "IdempotencyConflict",
    precondition: "a key used once on a comment, then sent to another endpoint and with another method; and a key first used on a DELETE, then sent with a comment",
  },
  "idempotency.replay": {
    title: "Every repeat of a key replays the stored response (Idempotency-Replayed: true, same body) without executing again where replay is promised (POST, PUT, DELETE; a search and the batch read too), the conversation action's last repeat sent with another body; on a PATCH, where it is not, a replay or a new execution",
    source: "IdempotencyKeyParameter (\"The same key sent again to the same endpoint returns the stored response with the header Idempotency-Replayed: true, and the operation is not re-executed\"); PatchIdempotencyKeyParameter x-svc-inferred.replay",
    precondition: "a successful keyed write (a search and the batch read too: POST), repeated with its key three times (the conversation action's last repeat with another body)",
  },
  "inputs.explore": {
    title: "Every optional query parameter is accepted with each value the contract names for it",
    source: "query parameters: enum, examples, the team lines for a line filter",
    precondition: "a read with optional query parameters, each sent with each value the contract names",
  },
  "lists.walk": {
    title: "A paged list walked whole at a small size, at the largest, and on one page exactly filled: the pages partition it, the counts agree, and the page after the last is a page, never refused as invalid",
    source: "Pagination (page, size, total_count, total_pages, has_more) + info.x-svc-limits.page_size_max",
    precondition: "a list of the team holding more entries than one small page (the team's data), and each line's share of it where the list filters by line",
  },
  "negative.content-type": {
    title: "A body that is not application/json is refused with 415",
    source: "the operation's 415 response",
    precondition: "a request the server must refuse: a body that is not application/json",
  },
  "negative.enum": {
    title: "Values outside an enum are refused with the documented code, a value of the enum in another case too",
    source: "enum + x-svc-error-code",
    precondition: "a request the server must refuse: one value outside its enum, or of it in another case",
  },
  "negative.id-prefix": {
    title: "An id with the wrong prefix is refused with the documented code",
    source: "x-svc-id-prefix + pattern + parameter x-svc-error-code",
    precondition: "a request the server must refuse: one id with another prefix",
  },
  "negative.malformed-json": {
    title: "Malformed JSON is refused with the documented code",
    source: "required request body",
    precondition: "a request the server must refuse: a body that is not JSON",
  },
  "negative.missing-required": {
    title: "Missing required parameters and fields are refused with the documented code",
    source: "required + x-svc-error-code",
    precondition: "a request the server must refuse: one required parameter or field left out",
  },
  "negative.out-of-range": {
    title: "Integer parameters outside their bounds (page, size) are refused with the documented code",
    source: "parameter minimum/maximum + x-svc-error-code",
    precondition: "a request the server must refuse: one integer parameter outside its bounds",
  },
  "negative.pattern": {
    title: "Strings that do not match their pattern are refused with the documented code",
    source: "pattern + x-svc-error-code",
    enforces: ["x-svc-option-rules LABEL_NOT_BLANK"],
    precondition: "a request the server must refuse: one string that does not match its pattern",
  },
  "negative.phone-format": {
    title: "Phone numbers not in E.164 are refused with the documented code",
    source: "PhoneNumber pattern + x-svc-error-code",
    precondition: "a request the server must refuse: one phone number not in E.164",
  },
  "negative.several-fields": {
    title: "Two fields failing at once: 400 INVALID_REQUEST, with an errors entry for each failing field naming it and its own code",
    source: "INVALID_REQUEST + ApiErrorFields errors (the description: validation errors with several fields)",
    precondition: "a request the server must refuse on two fields at once: two values broken, each refused alone with its own code",
  },
  "negative.too-long": {
    title: "Strings and lists outside their length limits (over the maximum, under a minimum) are refused with the documented code",
    source: "maxLength/maxItems, minLength/minItems + x-svc-error-code",
    enforces: ["x-svc-option-rules LABEL_MAX_LENGTH"],
    precondition: "a request the server must refuse: one string or list outside its length limits",
  },
  "negative.unknown-field": {
    title: "Unknown body fields are refused, never dropped",
    source: "additionalProperties: false + x-svc-error-code",
    precondition: "a request the server must refuse: one body field the contract does not have",
  },
  "negative.unknown-id": {
    title: "An unknown id of each prefix gives the documented 404, never the not-found code of another kind than its prefix names (no TEXT_MESSAGE_NOT_FOUND for a cll- id)",
    source: "parameter x-svc-error-code / the operation's 404 codes; Identifier prefixes (Call cll-, Text message msg-) + CALL_NOT_FOUND \"No call with this id\", TEXT_MESSAGE_NOT_FOUND \"No text message with this id\"",
    precondition: "a request the server must refuse: one id of the right prefix that names nothing",
  },
  "notes.listed-in-conversation": {
    title: "A note read by id is in its conversation's notes: the list of the note's contact number holds it, a note on no line too",
    source: "\"GET /v2/api/conversations/{contact_number}/notes | Lists a conversation's notes\"; ConversationNote: \"contact_number | string | Contact's phone number\", \"svc_number | string or null\"",
    precondition: "notes named in the config (fixtures.note_ids: a sandbox names its notes on no line), read by id 2xx with a contact number, then the notes of that contact listed 2xx",
  },
  "notes.mention-deleted": {
    title: "Each known note's mentions say whether the user was removed: deleted true for a member since removed (named in --config), false for a listed teammate; its conversation's notes list each mention as the note read by id shows it",
    source: "NoteMention deleted: \"true when the mentioned user has since been removed from the team\"; ConversationNote \"mentions (array of NoteMention)\"",
    precondition: "a known note mentioning a member removed from the team (fixtures.removed_user_ids: no operation removes one), read by id and in its conversation's notes; a note mentioning several, listed too (each mention as read by id)",
  },
  "notes.mention-name": {
    title: "A known note's mention carries the mentioned user's name (as its content writes it, or as the API names that user), or null; never another user's",
    source: "NoteMention: \"user_id string; name string or null\"; Mention syntax \"@[<display_name>](usr-<id>)\"",
    precondition: "known notes with mentions, read by id; the names the API gives users, from the notes' authors (NoteUser)",
  },
  "people.replay-not-rerun": {
    title: "A keyed person update sent again after its undo is the stored response replayed, not applied again: the person keeps the undo",
    source: "Idempotency 3: \"returns the stored response with the header Idempotency-Replayed: true, and the operation is not re-executed\"; \"PUT /v2/api/crm/people/{id} | Updates a person\"",
    precondition: "fixtures.person_update: the update with a key, the undo without one, the update again with the key; then the person found by id in a people search (the run key)",
  },
  "people.update-existing": {
    title: "A PUT on a person of the team (named in --config) is not answered as for an unknown person: never 404 PERSON_NOT_FOUND",
    source: "PERSON_NOT_FOUND: \"No person with this `per-*` id\"; \"PUT /v2/api/crm/people/{id} | not shown | Updates a person\"",
    precondition: "a person of the team (fixtures.person_ids: no operation shows people in a known shape), sent a PUT of the example fields mistyped, which changes nothing",
  },
  "people.update-shown": {
    title: "A person updated shows the update wherever the team reads it (a people search by each of the team's keys that may search, a deal linking the person), and shows the undo after it",
    source: "\"PUT /v2/api/crm/people/{id} | Updates a person\"; \"POST /v2/api/crm/people/search | Searches people\"; deal \"person ({ id, name, last_name })\"; \"A key belongs to a single team\"",
    precondition: "fixtures.person_update (the update's body is not shown), the person found by id in the answer of a people search of each key (the run's, and the team's other keys that may search: searched first, so that an answer kept per key shows) or in a deal that links it, before the update",
  },
  "proxy.refusal": {
    title: "A request the contract refuses (unknown route, no key, a body that is not JSON, a value outside its limits) gets the documented error",
    source: "route matching, security, request body, parameter and body schemas + x-svc-error-code",
    precondition: "a request relayed by the proxy that the contract refuses",
  },
  "proxy.unchecked-too-large": {
    title: "A response larger than --max-response-bytes (after decompression), or arriving while the proxy holds 4 × that for other checks, is relayed whole and left unchecked (a skip by option, not a failure)",
    source: "--max-response-bytes",
    precondition: "an answer relayed by the proxy over --max-response-bytes, or while it holds 4 × that",
  },
  "rate-limit.burst": {
    title: "A burst over the read limit gives 429 with retry_after_seconds; X-RateLimit-Remaining falls with each admitted request and is 0 on a 429",
    source: "info.x-svc-limits + RateLimited response + RateLimitRemainingHeader",
    precondition: "more reads in one second than the documented limit (opt-in: --burst)",
  },
  "rate-limit.within-budget": {
    title: "Reads and writes paced within the documented per-second budgets, mixed in one second and outlasting it, are all admitted: no 429 (the run owns its key)",
    source: "Limits: \"Read requests (GET) | 20 per second | all endpoints\", \"Write requests (POST, PUT, PATCH, DELETE) | 5 per second | all endpoints\"; info.x-svc-limits",
    precondition: "the run owns its key and paces at the documented rates (no --burst, --shared-key or --rate off); a write budget's worth of reads, then the writes among more reads, one more of each class than a window holds, outlasting one second",
  },
  "rate-limit.write-burst": {
    title: "A burst over the write limit gives 429 with retry_after_seconds; X-RateLimit-Remaining falls with each admitted write and is 0 on a 429",
    source: "info.x-svc-limits (write_requests_per_second) + RateLimited response + RateLimitRemainingHeader",
    precondition: "more writes in one second than the documented limit: the action that leads a conversation to read, repeated (opt-in: --burst, with --allow-writes)",
  },
  "reads.every-fixture": {
    title: "A read addressed by an id succeeds for every fixture of that kind the run knows (discovered or configured)",
    source: "path id parameters + the lists and config fixtures that name the ids",
    precondition: "every fixture of the kind the read addresses, discovered or named in the config (deal_ids, item_ids, note_ids, user_ids), up to --fixtures-per-kind",
  },
  "reads.every-line": {
    title: "A read whose path names a line succeeds on every line of the team, with a key allowed on it",
    source: "path parameters of type PhoneNumber + the lines of GET /v2/api/numbers",
    precondition: "every line of the team (GET /v2/api/numbers, up to --fixtures-per-kind), each with a key allowed on it (the run key, else a line-limited config key listing it)",
  },
  "receptionist.calendars-selected": {
    title: "A connected calendar selected on a line (sent twice: a set) is the one calendar its receptionist then books on, and no other line changes; selected after the line's own, each calendar shows as itself (its owner, name, status as found)",
    source: "scheduling.calendars: \"only the calendars this receptionist books on\"; updateReceptionist: \"Collections are replaced as complete sets: … scheduling.calendars\"; the API \"only lists connected ones and selects what the receptionist books on\"",
    precondition: "a calendar connected to the team (shown on another line's receptionist, or named in fixtures.calendar_connection_ids) outside the selection of a line that books on another one (else on none); then that line's own calendars and it, together",
  },
  "receptionist.collections-replaced": {
    title: "Collections are replaced as complete sets: each collection, sent less one entry (its smallest; a set of switches with one turned off), loses it, a list that leaves fewer than two is also sent with one entry more and keeps them all, and nothing else changes",
    source: "x-svc-merge-rules.replaced",
    enforces: ["x-svc-merge-rules replaced"],
    precondition: "a receptionist collection with an entry to remove: each sent less one entry; a list of several entries sent",
  },
  "receptionist.current-user": {
    title: "is_current_user is true for one calendar owner at most, the key's own, and alike on each of that owner's calendars; read with the team's other keys whose member the config names (user_id), true on no other member's calendar",
    source: "scheduling.calendars: \"owner { user_id, user_name, email, is_current_user (boolean) }\"; dialer queue: \"the queue of the API key owner\" (a key acts for one user)",
    precondition: "calendars of two different owners shown (every line's receptionist read); each line read again by the team's keys whose member --config names (user_id), one per member, after the run's key (a receptionist kept per line shows another member's view)",
  },
  "receptionist.large-value": {
    title: "A long single value (a body of 16 KiB or more) is merged and read back as sent, the same on each read",
    source: "x-svc-merge-rules.merged (\"Single values are merged\"; no length limit is stated for knowledge.text)",
    enforces: ["x-svc-merge-rules merged"],
    precondition: "an update body of 16 KiB or more (one single value of tens of thousands of characters), and the configuration holding it, 64 K characters or more, read twice with no write between",
  },
  "receptionist.merge-rules": {
    title: "Single values are merged (each text value of the agent block and knowledge.text, sent alone in turn): the others keep their values, and the team's other lines keep theirs (the configuration is per line)",
    source: "x-svc-merge-rules.merged",
    enforces: ["x-svc-merge-rules merged"],
    precondition: "a single value of the agent block and knowledge.text, each sent alone with a new value (a code or an address: the value another line holds, on every line); the single values other than the one sent hold values a faulty reset would not write (one at least not empty, null or false), and knowledge holds website or file entries beside its text; other keys of the team that may read it read it before the first change and after; the other lines of the team read before each text value is sent and after",
  },
  "receptionist.one-per-line": {
    title: "Each line answers its own receptionist: no two lines show the same agent id",
    source: "AI receptionist configuration (per line); AI receptionist: \"does not create receptionists (a line has one from creation)\"",
    precondition: "the receptionists of two lines or more read (every line GET /v2/api/numbers lists)",
  },
  "receptionist.read-only": {
    title: "The agent's status and is_default sent on an update, each alone, at the top and inside agent: refused, or accepted and left unchanged",
    source: "updateReceptionist: \"The agent's status and is_default are read-only here.\"",
    precondition: "writes of the receptionist of a line sending status, then is_default, other than the values it holds, each alone at the top and inside agent, each then read",
  },
  "receptionist.write-back": {
    title: "The configuration written back as read (single values at the top level) changes nothing",
    source: "x-svc-merge-rules + x-svc-ambiguity (both readings of the single values)",
    precondition: "a line's receptionist configuration as read, written back whole",
  },
  "request-id.echo": {
    title: "A sent X-Request-Id is echoed in the header and in error.request_id",
    source: "RequestIdParameter",
    precondition: "a request sent with its own X-Request-Id",
  },
  "response.content-type": {
    title: "Content-Type is application/json where a body is documented",
    source: "response content",
    precondition: "any answer whose status documents a body",
  },
  "response.error-code": {
    title: "error.code is one the operation lists for that status",
    source: "the error response code enum",
    precondition: "any error answer",
  },
  "response.error-details": {
    title: "An error field says what the description says it says, on every error: the scope named in the message of API_KEY_INSUFFICIENT_SCOPE, the failing value quoted by the message of a not-found code (its param naming one the request sent) and the unknown field named by UNKNOWN_FIELD, E.164 in the suggestion of INVALID_PHONE_FORMAT, the next step a code's meaning gives in its suggestion where one is given (Api-Key, GET /v2/api/numbers, template_key, GET /v2/api/threads); param names a parameter of the request; endpoints a suggestion names are operations of the contract; doc_url links to no other error's page",
    source: "ErrorCode x-svc-codes x-svc-detail-rules + the error body field table",
    enforces: ["x-svc-detail-rules API_KEY_INSUFFICIENT_SCOPE message names required-scope","x-svc-detail-rules INVALID_PHONE_FORMAT suggestion contains E.164","x-svc-detail-rules CONVERSATION_ITEM_NOT_FOUND message names failing-value","x-svc-detail-rules MEMBER_NOT_FOUND message names failing-value","x-svc-detail-rules CALL_NOT_FOUND message names failing-value","x-svc-detail-rules TEXT_MESSAGE_NOT_FOUND message names failing-value","x-svc-detail-rules PHONE_NUMBER_NOT_FOUND message names failing-value","x-svc-detail-rules TAG_NOT_FOUND message names failing-value","x-svc-detail-rules SUMMARY_TEMPLATE_NOT_FOUND message names failing-value","x-svc-detail-rules PERSON_NOT_FOUND message names failing-value","x-svc-detail-rules NOTE_NOT_FOUND message names failing-value","x-svc-detail-rules THREAD_NOT_FOUND message names failing-value","x-svc-detail-rules ATTRIBUTE_NOT_FOUND message names failing-value","x-svc-detail-rules ASSIGNEE_NOT_FOUND message names failing-value","x-svc-detail-rules UNKNOWN_FIELD message names failing-field","x-svc-detail-rules UNAUTHORIZED suggestion contains Api-Key","x-svc-detail-rules SVC_NUMBER_FORBIDDEN suggestion contains /v2/api/numbers","x-svc-detail-rules SUMMARY_TEMPLATE_KEY_REQUIRED suggestion contains template_key","x-svc-detail-rules THREAD_ALREADY_EXISTS suggestion contains /v2/api/threads"],
    precondition: "an error whose field the description says something about, provoked by any check (a scope refusal, INVALID_PHONE_FORMAT, a not-found naming what was sent, a param, a suggestion naming endpoints, a doc_url)",
  },
  "response.error-fields": {
    title: "Fields the description allows only on some errors appear only there (retry_after_seconds on rate limits)",
    source: "ApiError retry_after_seconds",
    precondition: "any error answer",
  },
  "response.error-message": {
    title: "Every error message is human-readable and includes the failing value: never blank, and quoting the value of the path parameter, top-level body string or header (not Authorization) its param names (writes and conflicts included)",
    source: "Errors, Error body: \"message | string | Human-readable, includes the failing value\" (ApiErrorFields message)",
    precondition: "any error answer (a blank message fails); an error whose param names one value the request sent, a path parameter, a top-level body string or a header other than Authorization, of at most 64 characters, or a request to a path no endpoint is at (the message must quote it)",
  },
  "response.error-type": {
    title: "error.type matches the code and the status",
    source: "ErrorCode x-svc-error-type, ErrorType x-svc-status-of-type",
    precondition: "any error answer",
  },
  "response.headers": {
    title: "Documented response headers are present and valid",
    source: "response headers",
    precondition: "any answer whose status documents headers",
  },
  "response.id-kind": {
    title: "A thread's entity_type is the kind its entity_id's prefix names (cll- CALL, msg- TEXT_MESSAGE, not- CONVERSATION_NOTE)",
    source: "Identifier prefixes (Call cll-, Text message msg-, Conversation note not-) + Thread entity_type / entity_id; ThreadEntityType and ThreadEntityId list them in the same order",
    precondition: "a thread answered (created, read, or found by its item), of any kind",
  },
  "response.idempotency-key-echo": {
    title: "Idempotency-Key is echoed on the response to a request that sent one",
    source: "IdempotencyKeyHeader",
    precondition: "any request sent with an Idempotency-Key",
  },
  "response.mentions": {
    title: "Every note and comment read lists in mentions exactly the users its content mentions inline (@[Name](usr-…))",
    source: "x-svc-mentions (ConversationNote, ThreadComment) + NoteMention x-svc-inline-syntax",
    enforces: ["x-svc-mentions ConversationNote content lists mentions","x-svc-mentions ThreadComment content lists mentions","x-svc-inline-syntax NoteMention"],
    precondition: "a note or comment read whose content mentions users inline (threads.mentions writes one)",
  },
  "response.no-5xx": {
    title: "Never a 5xx",
    source: "a 5xx is a server failure whatever the input",
    precondition: "any answer",
  },
  "response.pagination": {
    title: "The pagination block adds up: total_pages, has_more and the page's length follow from page, size and total_count; page and size echo the request",
    source: "Pagination (list response convention)",
    precondition: "any answer of a paged list",
  },
  "response.rate-limit-budget": {
    title: "No 429 while the run's own traffic on its key is within the documented per-second budget of the request's class, under any windowing (the run owns its key: no --shared-key, no --burst)",
    source: "info.x-svc-limits + the 429 response",
    precondition: "a 429 while the run owns its key (no --shared-key, no --burst)",
  },
  "response.rate-limit-headers": {
    title: "X-RateLimit-* are present and numeric on every response",
    source: "headers required on every response",
    precondition: "any answer",
  },
  "response.rate-limit-window": {
    title: "X-RateLimit-Limit is the documented budget of the request's class; X-RateLimit-Remaining never rises inside one window (per key and class)",
    source: "info.x-svc-limits + RateLimitLimitHeader/RateLimitRemainingHeader/RateLimitResetHeader",
    precondition: "two answers to one key and class certainly in one window (the second sent after the first was answered)",
  },
  "response.replayed-stored-only": {
    title: "Idempotency-Replayed: true only on a stored response: a successful keyed write replayed, never an error (a failed request is not stored) nor an answer to a request without a key",
    source: "IdempotencyKeyParameter (\"returns the stored response with the header Idempotency-Replayed: true\"; \"When the request fails (4xx or 5xx), the key is not consumed\"); Limits: idempotency storage of successful keyed writes",
    precondition: "an error answer, or one to a request sent without an Idempotency-Key (a keyed request that failed, sent again)",
  },
  "response.request-id": {
    title: "request id well-formed, in the header and equal to error.request_id",
    source: "info.x-svc-limits.request_id_pattern, RequestIdHeader",
    precondition: "any answer",
  },
  "response.retryable": {
    title: "retryable as the catalogue says (true for rate limits, with retry_after_seconds)",
    source: "ErrorCode x-svc-retryable",
    precondition: "any error answer",
  },
  "response.schema": {
    title: "The body validates against the documented schema (error bodies too)",
    source: "response schema (Ajv 2020-12)",
    precondition: "any answer whose status documents a body (error bodies too)",
  },
  "response.selection": {
    title: "A read answers only what its parameters selected: entries carrying a field named as a path or query parameter hold the value sent (a conversation's notes, a thread by its item, a resource by id); and two conversations of different contact_number never show the same last_item (an item is of its contact's conversation)",
    source: "GET /v2/api/conversations/{contact_number}/notes \"Lists a conversation's notes\" (ConversationNote contact_number \"Contact's phone number\"); GET /v2/api/threads \"finds the thread of an item by query parameters entity_type and entity_id\"; a read by id answers { data: <resource> } of that id; Conversation list entry \"contact_number, ..., last_item\" (conversations: \"calls and SMS in one timeline\")",
    precondition: "a read selecting by a parameter whose answer holds entries: the notes of every conversation discovery lists, every note, thread and item read by id, the thread of an item; a page of two or more conversations",
  },
  "response.status-documented": {
    title: "The status is one the operation lists, API-wide answers included",
    source: "responses of the operation",
    precondition: "any answer",
  },
  "response.transport": {
    title: "The server answers (no connection failure or timeout)",
    source: "",
    precondition: "any request sent",
  },
  "routing.unknown-path": {
    title: "An unknown path gives 404 ENDPOINT_NOT_FOUND, whatever the method",
    source: "API-wide catalogue code: ENDPOINT_NOT_FOUND \"No endpoint at this URL\"",
    precondition: "a request the server must refuse: a path no operation has, with each method",
  },
  "routing.wrong-method": {
    title: "An undocumented method on a documented path gives 405 METHOD_NOT_ALLOWED, the other update method (PUT beside PATCH, PATCH beside PUT) too",
    source: "API-wide catalogue code",
    precondition: "a request the server must refuse: a method the path does not document",
  },
  "suite.error": {
    title: "The check ran to completion",
    source: "",
    precondition: "any check that ran",
  },
  "summary-templates.delete": {
    title: "DELETE gives 204, then 404 for the same template, by the same key and by other keys of the team",
    source: "x-svc-transitions",
    enforces: ["x-svc-transitions DELETE /v2/api/summary_templates/{id} (active → deactivated)","x-svc-transitions DELETE /v2/api/summary_templates/{id} (deactivated → deactivated)"],
    precondition: "an active summary template (fixtures.summary_template_ids), deactivated by the run, then deleted again by the run key and by other keys of the team that may delete",
  },
  "summary-templates.delete-keeps-summaries": {
    title: "After a DELETE deactivates a template, the summaries already generated stay readable: every call read with a template key before the DELETE reads the same after it, and a call with more than one still needs a template key",
    source: "Summary template lifecycle: active → DELETE → deactivated (soft-deleted), \"not used for new call summaries; summaries already generated are unaffected\"",
    precondition: "completed summaries read (a call read with a documented template key answered 2xx) before an active template (fixtures.summary_template_ids) was deactivated by the run, then read again; a call with more than one read without a template key before and after",
  },
  "summary-templates.inactive": {
    title: "DELETE of a template deactivated before the run (named in --config) is 404 SUMMARY_TEMPLATE_NOT_FOUND",
    source: "deleteSummaryTemplate 404 SUMMARY_TEMPLATE_NOT_FOUND: \"no active template with this id exists for the team\"",
    precondition: "a summary template deactivated before the run (fixtures.inactive_summary_template_ids: no operation reads a template)",
  },
  "tags.add-remove": {
    title: "Tags: add, add again (409), remove, remove again (404); the tag added shows on the item to the team's other keys that read it; a tag whose name the path percent-encodes too; two tags added in one request, each then removed (the second was stored); a tag already on the item sent behind another (409)",
    source: "addConversationItemTags / removeConversationItemTag; TagName: \"In a URL path it is URL-encoded (for example Follow%20up)\"",
    precondition: "an item and a tag it does not carry yet (a team tag, else one new to the team), then it and another team tag together, then the tag alone and both again with the tag second, then, where the team has one, a team tag whose name needs percent-encoding",
  },
  "tags.conflict-names-tag": {
    title: "Adding two tags, the second already on the item: a 409 TAG_ALREADY_EXISTS names the tag already on the item in its message, not the one sent first",
    source: "Error body: \"message | string | Human-readable, includes the failing value\"; TAG_ALREADY_EXISTS: \"Tag already on the item\"",
    precondition: "an item carrying one tag, sent that tag second after a tag it does not carry (the other put back as found after)",
  },
  "tags.per-item": {
    title: "A tag belongs to the item it was added to: added to a second item while on a first, and removing one tag leaves the item's other tags and the other item's tag",
    source: "TAG_ALREADY_EXISTS: \"Tag already on the item\"; TAG_NOT_FOUND: \"Tag not on this item\"",
    precondition: "two items and two tags: the first item carrying both tags and the second the first tag at once (each cleared first, put back after)",
  },
  "tags.replay-not-rerun": {
    title: "A keyed tag add sent again after the tag was taken off is the stored response replayed, not run again: the item does not carry the tag",
    source: "Idempotency 3: \"returns the stored response with the header Idempotency-Replayed: true, and the operation is not re-executed\"",
    precondition: "an item and a tag it does not carry: the tag added with a key, taken off without one, added again with the key; then the item read (its tags shown)",
  },
  "tenants.action-by-contact": {
    title: "A conversation action without svc_number changes the run team's conversations only: another team's conversation with the contact is left as it was",
    source: "\"A key belongs to a single team.\" (Authentication); the action without svc_number \"applies across all of the team's lines\"",
    precondition: "a key of another team (kind other-team) listing a conversation with a contact the run's team has none with, whose entry shows whether it is archived; the run key's action that would move it, then that team's list read again",
  },
  "tenants.legacy-workspace": {
    title: "A key of a workspace not on the new contact model (declared in --config): 404 TEAM_NOT_FOUND where the operation lists it",
    source: "TEAM_NOT_FOUND (workspace not on the new contact model) on the custom field operations",
    precondition: "a key of a workspace not on the new contact model (a config key of kind legacy-workspace)",
  },
  "tenants.other-team": {
    title: "A key of another team (declared in --config) finds none of the team's resources: an id of the team gets the operation's not-found, and no answer, lists included, carries the team's ids, lines or custom fields (by key, type and label: they have no id)",
    source: "\"A key belongs to a single team.\" (Authentication) + the 404 response; custom field \"key | Unique key; immutable\"",
    precondition: "a key of another team (a config key of kind other-team), sent the team's own ids and lines, and every list it may read (the team's custom fields known from discovery)",
  },
  "tenants.other-teams-read": {
    title: "The run's key reading by id a resource of another team (each kind whose id another team's key, declared in --config, reads in its lists) gets the read's not-found; reading by a phone number only that team's lists show (a conversation's notes), it gets none of that team's ids",
    source: "\"A key belongs to a single team.\" (Authentication) + the 404 responses",
    precondition: "an id of another team's resource, read in a list with a key of another team (a config key of kind other-team), for at least one read by id; the reads of kinds no such list shows are named; numbers of that team's list entries the team's own lists show nowhere, for the reads by phone number",
  },
  "tenants.other-teams-resource": {
    title: "The run's key naming in a request body a resource of another team (an id another team's key, declared in --config, reads in its lists) where the body names one of the team's by id, and a member of that team by email where the body names a teammate by email: the operation's not-found",
    source: "\"A key belongs to a single team.\" (Authentication) + the 404 response; user_id \"must belong to the same team\"",
    precondition: "an id of another team's resource of the prefix the request names, and an email of another team's member where the body takes an email, read in the lists of a key of another team (a config key of kind other-team)",
  },
  "tenants.tags-of-team": {
    title: "A tag name new to the run's team, added to one of its items, is not in another team's tag list",
    source: "\"A key belongs to a single team.\" (Authentication); \"For one team, the holder of an API key can read and manage: ... users and tags\"",
    precondition: "a key of another team (kind other-team) whose tag list answers 2xx without the name; the name added to an item of the run's team, then that list read again",
  },
  "threads.comment-author": {
    title: "A comment's user is the owner of the key that wrote it, whoever started the thread: one key's comments on threads started by different users name one author, as do the first comments of the threads it started, whoever the item's user; a key whose owner the config names writes comments naming that owner; and another key of the team reads the same author",
    source: "ThreadComment user (NoteUser: \"author of a note or comment\")",
    precondition: "two threads whose first comments name different users (the run's probe thread and known ones, read first), each given a comment by the run's key; a comment by each key of the team whose config entry names its owner (user_id), one per owner; the threads the run started on known items (looked up by item); another key of the team that may read threads (--config)",
  },
  "threads.comment-then-read": {
    title: "An added comment (the fourth or later) reads back at the end of the thread, comment_count follows, for the run's key and the team's other keys that may read the thread",
    source: "addThreadComment / getThread; \"A key belongs to a single team\"",
    precondition: "a thread the run created (else one found), given 3 comments first where it has fewer, read before and after the comment by the run's key and the team's other keys that may read threads (--config: a thread kept per key shows)",
  },
  "threads.content-limits": {
    title: "Content of exactly the limit (and of the minimum length) is accepted; one more, or blank, is refused",
    source: "NoteContent maxLength + x-svc-error-code",
    precondition: "a thread to comment on (the one the run created, else one found)",
  },
  "threads.create-content-limits": {
    title: "A new thread whose content is exactly the maximum, or exactly the minimum, length is accepted, holds it and is found by its item (one free item each)",
    source: "CreateThreadRequest content maxLength/minLength",
    precondition: "two items without a thread (fixtures.threadless_item_ids, else known items found to have none)",
  },
  "threads.create-each-kind": {
    title: "A thread can be created on each kind of item (entity_type), with every documented header",
    source: "CreateThreadRequest.entity_type enum",
    precondition: "a free item of each entity_type no thread of the run was created on (fixtures.threadless_item_ids, else known items found to have none)",
  },
  "threads.create-then-read": {
    title: "A created thread holds its first comment (its inline mentions parsed into mentions), reads back the same, and is what a lookup by its item finds",
    source: "createThread / getThread / findThread; \"content | first comment; ... mentions inline\", ThreadComment \"mentions (array of NoteMention)\", Mention syntax \"Inline in content text: @[<display_name>](usr-<id>)\"",
    enforces: ["x-svc-response-rules CREATED_WITH_FIRST_COMMENT"],
    precondition: "an item without a thread (fixtures.threadless_item_ids, else a known item found to have none), given one by the run with a first comment mentioning a teammate, then looked up by that item",
  },
  "threads.duplicate": {
    title: "A second thread on an item of any kind is 409 THREAD_ALREADY_EXISTS, by the run key and by other keys of the team; a look-up its suggestion or message fills in names that item",
    source: "createThread 409",
    precondition: "an item of each entity_type that has a thread (the run created it, else one found); other keys of the team that may create threads (line-limited, active) where the config declares them",
  },
  "threads.kind-of-item": {
    title: "A thread is never created saying another kind than its item's: entity_type sent with an item of another kind is refused, or the thread answered names the item's own kind",
    source: "Thread: \"One thread per conversation item (a call, a text message or a conversation note)\", entity_type \"CALL, TEXT_MESSAGE or CONVERSATION_NOTE\" and entity_id \"cll-*, msg-* or not-*\"",
    precondition: "a free item of one kind (fixtures.threadless_item_ids, else known items found to have none), sent with another entity_type",
  },
  "threads.large-body": {
    title: "A body of 16 KiB or more is refused as a small one with the same fault is (code, type, param)",
    source: "NoteContent maxLength + x-svc-error-code (\"Note, comment and thread content: at most 4,000 characters\"; INVALID_REQUEST_BODY: \"Body unparseable\")",
    precondition: "a request body of 16 KiB or more (content of 20 000 characters; JSON cut short after as many) beside the same fault in a small body",
  },
  "threads.lookup-by-kind": {
    title: "The thread lookup of an item's id under another entity_type does not answer that item's thread",
    source: "GET /v2/api/threads \"finds the thread of an item by query parameters entity_type and entity_id\"",
    precondition: "a thread known with its item (discovered, or fixtures.thread_ids), looked up under each other kind",
  },
  "threads.mention-display-name": {
    title: "A mention whose display name carries punctuation (a title's dot, a comma, an apostrophe, a hyphen) is listed like any other: the teammate, deleted false",
    source: "Mention syntax \"@[<display_name>](usr-<id>)\": a display name is text, brackets and parentheses aside; ThreadComment \"mentions (array of NoteMention)\"",
    precondition: "a comment mentioning a current teammate (listed by GET /v2/api/users) under a display name with punctuation, read back",
  },
  "threads.mention-removed": {
    title: "A mention of a member since removed from the team (named in --config) is listed with deleted true, after a mention of a current teammate listed with deleted false (each mention its own flag)",
    source: "NoteMention deleted: \"true when the mentioned user has since been removed from the team\"; ThreadComment \"mentions (array of NoteMention)\"",
    precondition: "a comment mentioning a current teammate, then a member removed from the team (fixtures.removed_user_ids: no operation removes one), not listed by GET /v2/api/users, read back",
  },
  "threads.mention-teammate": {
    title: "A mention of a current teammate, written under the name the API shows for them, is listed with deleted false and that name (or null)",
    source: "NoteMention: \"user_id string; name string or null; deleted boolean (true when the mentioned user has since been removed from the team)\"; Mention syntax \"@[<display_name>](usr-<id>)\"",
    precondition: "a comment mentioning current teammates (listed by GET /v2/api/users) under the names the API shows for them as authors of notes or comments, read back",
  },
  "threads.mention-unknown": {
    title: "A comment mentioning a user id no teammate has is accepted like any content and reads back, the mention listed",
    source: "Threads: content \"at most 4000 characters; must not be blank; mentions inline\" (its only refusals: EMPTY_NOTE_CONTENT, NOTE_CONTENT_TOO_LONG); ThreadComment \"mentions (array of NoteMention, may be empty)\"",
    precondition: "a comment mentioning a user id that is neither listed by GET /v2/api/users nor named as removed, read back",
  },
  "threads.mentions": {
    title: "Inline mentions come back parsed in mentions",
    source: "NoteContent / NoteMention",
    precondition: "a comment whose content mentions a user of the team inline, written by the check",
  },
  "users.removed-not-found": {
    title: "A member removed from the team is not found by id (MEMBER_NOT_FOUND)",
    source: "NoteMention deleted: \"removed from the team\"; MEMBER_NOT_FOUND: \"No team member with this id\"",
    precondition: "a member removed from the team (fixtures.removed_user_ids: no operation removes one)",
  },
  "writes.every-line": {
    title: "A write whose path names a line, sent on every line of the team with a key allowed on it (an empty update), succeeds and changes nothing",
    source: "path parameters of type PhoneNumber + the lines of GET /v2/api/numbers; an all-optional update body",
    precondition: "every line of the team (up to --fixtures-per-kind), each with a key allowed on it",
  },
} as const satisfies Record<string, CheckInfo>;
// END of the written table.

export type CheckId = keyof typeof CHECKS;

/** What a check is: as described by the code loaded (a check registered after the table was written too), else the table's. */
export function checkInfo(id: string): CheckInfo {
  return describedCheck(id) ?? (CHECKS as Record<string, CheckInfo>)[id] ?? { title: id, source: '' };
}

/** Every check id known: the table's, and any described by the code loaded since it was written. */
export function knownCheckIds(): string[] {
  return [...new Set([...Object.keys(CHECKS), ...describedChecks().map((d) => d.id)])];
}

/** The pseudo-operation of checks that belong to no operation (unknown paths, wrong methods, bursts). */
export const API_WIDE = '(api-wide)';
