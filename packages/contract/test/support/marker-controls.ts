// Every honesty marker of the contract (x-svc-ambiguity, x-svc-unspecified, x-svc-inferred), as
// the bundle holds it, mapped to the control (controls.ts) that shows the suite passing a server
// that takes another reading, or to the reason no such server can make the suite fail. A marker
// is named by where it sits and which marker (and aspect) it is:
// `#/paths//v2/api/threads/post/responses/201 x-svc-ambiguity`. The first rule that matches wins;
// markers.test.ts fails on a marker no rule covers, on a rule that covers nothing and on a control
// that does not exist.

export interface MarkerRule {
  /** Matches marker ids (`<pointer with ~1 read as /> <marker>[.<aspect>]`). */
  markers: RegExp;
  /** Names of controls (controls.ts) that take another reading; the suite passes each. */
  controls?: string[];
  /** Why no server taking another reading can fail the suite. */
  reason?: string;
}

const PATHS = '#/paths//v2/api';
const SCHEMAS = '#/components/schemas/';
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const at = (pointer: string, marker: string) => new RegExp(`^${esc(pointer)} ${esc(marker)}$`);
/**
 * The marker kinds a reason may cover by pattern: what is not shown or had to be inferred. An
 * ambiguity (two readings a server can take) is always named by its own rule.
 */
const OPEN = 'x-svc-(unspecified|inferred)(\\.\\w+)?';
const under = (prefix: string, marker: string) => new RegExp(`^${esc(prefix)}\\S* ${marker}$`);

export const MARKER_RULES: MarkerRule[] = [
  {
    markers: new RegExp(`^${esc(PATHS)}/threads/\\{id\\}/comments/post/responses/(200|201) x-svc-unspecified$`),
    controls: ["answers a comment's add with the comment's id alone"],
    reason:
      "A comment's author, content and mentions are read from its thread, which shows them; the add's answer only where the thread does not.",
  },
  {
    markers: at(`${PATHS}/threads/get/responses/200`, 'x-svc-unspecified'),
    controls: [
      'answers the thread lookup in the list envelope (the thread as its one entry, none where the item has none)',
    ],
    reason:
      'The thread is read as data or as the first entry of a data list (lookedUpOf), and its lookup after a creation only asks that the answer hold the id, wherever it is.',
  },
  {
    markers: at('#/components/headers/IdempotencyReplayedHeader', 'x-svc-unspecified'),
    reason:
      "Both readings pass: the header's schema admits false, and the replay checks ask only that a first execution not say true and that each repeat say true (mutants-edges.test.ts runs a server saying false on first executions).",
  },
  {
    markers: at(`${SCHEMAS}WebsiteKnowledgeEntry`, 'x-svc-inferred.scraped-text-names'),
    controls: ['gives each website entry of the knowledge a field the description does not show'],
    reason:
      'The names refused are those a server would give the scraped text; a field under any other name is accepted (the control), so a server that omits the text, as described, always passes.',
  },
  // --- Readings a server can take on the wire, each shown passing by a control.
  {
    markers: at('#/components/parameters/PatchIdempotencyKeyParameter', 'x-svc-inferred.replay'),
    controls: ['executes a repeated PATCH again instead of replaying it (replay is not promised on PATCH)'],
  },
  {
    markers: at(`${PATHS}/conversations/{contact_number}/action/put`, 'x-svc-ambiguity'),
    controls: ['follows the action page: a CONVERSATIONS_READ key without CONVERSATIONS_WRITE is refused'],
  },
  {
    markers: new RegExp(`^${esc(PATHS)}/numbers/\\{number\\}/agent/(get|patch) x-svc-ambiguity\\.line-access$`),
    controls: [
      'answers a line the key may not access with 404 PHONE_NUMBER_NOT_FOUND (the receptionist page)',
      'answers a number that is no line of the team with 403 SVC_NUMBER_FORBIDDEN (the Authentication section)',
    ],
  },
  {
    markers: new RegExp(`^${esc(PATHS)}/crm/people/\\{id\\}/put/responses/(200|204) x-svc-(ambiguity|unspecified)$`),
    reason:
      'updatePerson is sent only invalid or unknown-id requests (whether its PUT merges or replaces is not shown), so no success status or body is ever expected of it.',
  },
  {
    markers: new RegExp(
      `^${esc(PATHS)}/(threads/post|threads/\\{id\\}/comments/post|conversations/items/\\{id\\}/tags/post|conversations/items/\\{id\\}/tags/\\{tag\\}/delete|numbers/\\{number\\}/agent/patch)/responses/(200|201|204) x-svc-ambiguity$`,
    ),
    controls: ['answers each write with the other documented success status (200 for 201, 201 for 200, 204 for 200)'],
  },
  {
    markers: new RegExp(
      `^${esc(SCHEMAS)}(Deal x-svc-ambiguity|Deal/properties/close_date x-svc-inferred|DealPerson x-svc-inferred\\.types)$`,
    ),
    controls: ["names a deal's fields as the field table does (value, close_date, person)"],
  },
  {
    markers: at(`${SCHEMAS}ConversationListPagination`, 'x-svc-ambiguity'),
    controls: ['leaves total_pages out of the conversation list, as its example does'],
  },
  {
    markers: at('#/components/headers/RateLimitResetHeader', 'x-svc-unspecified'),
    controls: ['gives X-RateLimit-Reset as a Unix time (its unit is not shown)'],
  },
  {
    markers: new RegExp(
      `^${esc(SCHEMAS)}(ConversationListLastItem/properties/(type|direction|result)|ReceptionistAgent/properties/(status|tone_of_voice|answer_type|language|voice_id)|Calendar/properties/(provider|status)|TransferRule/properties/type|(Website|File)KnowledgeEntry/properties/status|Deal/properties/status) x-svc-unspecified$`,
    ),
    controls: ['uses values beyond the examples where the allowed values are not shown'],
  },
  {
    markers: new RegExp(
      `^${esc(SCHEMAS)}(CustomField/properties/(description|options)|CustomFieldResponse) x-svc-unspecified$`,
    ),
    controls: ['leaves a cleared custom field description out and gives options [] on fields that are not DROPDOWN'],
  },
  {
    markers: new RegExp(
      `^${esc(SCHEMAS)}(UserListResponse|TagListResponse|NumberListResponse|ConversationNote) x-svc-unspecified$`,
    ),
    controls: ['lists users, tags and numbers without pagination, and a note without its line'],
  },
  {
    markers: new RegExp(
      `^${esc(SCHEMAS)}(Thread/properties/resolved_by|TagListResponse/properties/data/items) x-svc-unspecified$`,
    ),
    controls: ["gives a resolved thread's resolved_by as the user's id and lists the tags by name alone"],
  },
  {
    markers: at(`${PATHS}/conversations/items/{id}/get/responses/404`, 'x-svc-inferred'),
    controls: [
      'answers an unknown call or message id with CONVERSATION_ITEM_NOT_FOUND (not CALL_ or TEXT_MESSAGE_NOT_FOUND)',
    ],
  },

  // --- Scopes: the readings are the security requirement's alternatives, handled by one rule.
  {
    markers: new RegExp(
      `^${esc(PATHS)}/crm/people/(search/post|\\{id\\}/put) x-svc-ambiguity$|^${esc(PATHS)}\\S* x-svc-inferred\\.scope$`,
    ),
    reason:
      'A scope the description does not give is listed as the security alternatives the marker names (one where it names one); auth.sufficient-scope accepts a refusal for scope from a key that satisfies only some alternatives, auth.insufficient-scope uses a key holding none, and neither requires the 403 to name a scope (the same rule the action-page control exercises).',
  },

  // --- Requests: what the suite sends, not how a server answers.
  {
    markers: new RegExp(`^${esc(PATHS)}/conversations/items/(search|batch)/post x-svc-inferred\\.idempotency$`),
    reason:
      'The suite sends no Idempotency-Key to the read-only POSTs (idempotency.key-reuse probes another endpoint with createThread, whose idempotency is promised), so whether they take part is never required.',
  },
  {
    // The sandbox takes the flat form (and the agent block); the control, only the agent block.
    markers: at(`${SCHEMAS}UpdateReceptionistRequest`, 'x-svc-ambiguity.body-form'),
    controls: ['expects the single values of a receptionist update inside an agent block, refusing them flat'],
  },
  {
    markers: new RegExp(
      `^(${esc(SCHEMAS)}(AddTagsRequest|AddThreadCommentRequest|BatchConversationItemsRequest|SearchConversationItemsRequest|UpdateCustomFieldRequest|UpdateDialingQueueRequest|UpdateReceptionist\\w*|CustomFieldOptionInput|ConversationAction|DialingQueueVoicemailHandling|TagName|SummaryTemplateId|ClientRequestId|UnspecifiedRequest)\\S*|#/components/parameters/(Page|Size)Parameter|${esc(PATHS)}\\S*/(parameters/\\d+(/schema)?|requestBody)) ${OPEN}$|^${esc(PATHS)}/threads/get x-svc-inferred\\.parameters$`,
    ),
    reason:
      'About what a client sends (names, shapes, defaults, values of requests): the suite sends only the documented or inferred names and values every reading accepts, sends page and size wherever it compares them, and never sends what the marker leaves open (key or type of a custom field, an unknown tag name, a calendar entry of another shape).',
  },

  // --- Answers whose reading is open in the schema or code list the checks read.
  {
    markers:
      /^#\/components\/responses\/(MethodNotAllowed|InternalServerError|UnsupportedMediaType|EndpointNotFound) x-svc-inferred$/,
    reason:
      'An API-wide answer listed on each operation so that tools reading one operation know it (405, 500, 415, and 404 ENDPOINT_NOT_FOUND where an unknown id has no code of its own): listing it only widens what response.status-documented accepts, and a server that never gives it is never required to.',
  },
  {
    // Which error fields are always present is not shown: param only "when applicable".
    markers: at(`${SCHEMAS}ApiErrorFields`, 'x-svc-inferred'),
    controls: ['leaves param out of every error but MISSING_PARAMETER and MISSING_HEADER'],
  },
  {
    markers: new RegExp(`^${esc(PATHS)}\\S*/responses/4\\d\\d x-svc-inferred$`),
    reason:
      "An error code the operation's page does not give, inferred from an API-wide rule (INVALID_PHONE_FORMAT for any number not in E.164) or from the catalogue's meaning (THREAD_NOT_FOUND for an unknown thread id): the marker allows that reading only, and no other catalogue code means the same.",
  },
  {
    markers: new RegExp(
      `^(${esc(SCHEMAS)}(Unspecified(Response|Object)|UserListResponse|UserResponse|TagListResponse|NumberListResponse|ConversationItemResponse|Thread|ConversationNote|ConversationListContact\\w*|DialingQueue\\w*|CustomField\\w*|ConversationListLastItem|BusinessHours\\w*|PromptSection|CalendarOwner|TransferRule|ApiErrorFields|FieldError)\\S*|${esc(PATHS)}\\S*/responses/\\d{3}) ${OPEN}$`,
    ),
    reason:
      'Open in the schema response.schema validates with (any object, a nullable or optional field, a plain string or integer, every documented status), and no check compares the value: every reading the marker allows validates.',
  },
  {
    markers: under(`${SCHEMAS}ErrorCode/x-svc-codes/`, OPEN),
    reason:
      'A catalogue entry whose operations (or type, for 405 and 415, inferred as validation_error, the only 400-family type) are not shown: no specified operation lists it, so no check expects it, and the suggestion text of API_KEY_INSUFFICIENT_SCOPE is never compared.',
  },
  {
    markers: new RegExp(
      `^${esc(PATHS)}/(conversations/\\{contact_number\\}/(action/put|notes/get)|crm/deals/\\{id\\}/get|crm/people/(search/post|\\{id\\}/put)|dialing-queues/current/patch|summary_templates/\\{id\\}/delete) x-svc-unspecified$`,
    ),
    reason:
      "Operation-level gaps (answers for a contact without a conversation, error codes not shown, template records, a new queue's defaults): the suite acts only on listed conversations and existing records and expects only the codes the operation lists. Not covered: a server answering 201 when the PATCH creates the key owner's first queue would fail response.status-documented, since the contract documents 200 only (the description gives 200).",
  },
  {
    markers: new RegExp(`^(#/webhooks/\\S+|${esc(SCHEMAS)}CallReceivedPayload\\S*) ${OPEN}$`),
    reason: 'Webhook deliveries are sent by the service to a receiver; the suite only calls the API.',
  },
  {
    markers: at('#/info/x-svc-limits', 'x-svc-unspecified'),
    reason: 'Limit values that are not shown (SMS daily limits, the date-range maximum) are used by no check.',
  },
];
