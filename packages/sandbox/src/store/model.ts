// The shape of the sandbox's state: what fixtures/seed.json holds and what the store keeps in
// memory. Everything is plain JSON, so a snapshot is JSON.stringify and a reset is a deep copy.
// Field names follow the API where the API shows them; the rest are the sandbox's own. Enums the
// contract holds are its generated types (@svc/api-types), never typed again here.
import type {
  Calendar,
  CalendarOwner,
  CallTranscription,
  ConversationListContact,
  CustomFieldOption,
  CustomFieldType,
  DealCompany,
  DialingQueue,
  DialingQueueNumber as QueueNumberSchema,
  ReceptionistAgent,
  ThreadEntityType,
} from '@svc/api-types';

export type { CustomFieldOption, ThreadEntityType };

export type Plan = 'PAID' | 'TRIAL';

export interface ApiKeyRecord {
  /** The secret sent as `Authorization: Api-Key <key>`. Sandbox demo keys only. */
  key: string;
  name: string;
  team_id: string;
  /** The user the key belongs to: author of threads and comments, owner of "my" dialer queue. */
  owner_user_id: string;
  scopes: string[];
  revoked: boolean;
  plan: Plan;
  /** Lines (E.164) the key may access; null means every line of the team. */
  lines: string[] | null;
}

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  role: string;
  /** Removed from the team: mentions of this user carry deleted: true. */
  removed: boolean;
}

export interface LineRecord {
  number: string;
  name: string;
  capabilities: { voice: boolean; sms: boolean };
}

/** A contact as the conversation list shows it, with the numbers it is known by. */
export type ContactRecord = ConversationListContact & { numbers: string[] };

export interface ConversationRecord {
  contact_number: string;
  svc_number: string;
  read: boolean;
  archived: boolean;
}

export type TranscriptLine = CallTranscription;

export interface CallSummary {
  template_key: string;
  status: 'COMPLETED' | 'PENDING' | 'FAILED';
  content: string;
}

export interface CallRecord {
  id: string;
  contact_number: string;
  svc_number: string;
  direction: 'INBOUND' | 'OUTBOUND';
  result: string;
  duration: number;
  user_id: string | null;
  started_at: string;
  read: boolean;
  tags: string[];
  transcript: TranscriptLine[];
  summaries: CallSummary[];
}

export interface MessageRecord {
  id: string;
  contact_number: string;
  svc_number: string;
  direction: 'INBOUND' | 'OUTBOUND';
  result: string;
  text: string;
  user_id: string | null;
  sent_at: string;
  read: boolean;
  tags: string[];
}

export interface NoteRecord {
  id: string;
  content: string;
  contact_number: string;
  svc_number: string | null;
  user_id: string;
  created_at: string;
  updated_at: string;
}

export interface CommentRecord {
  id: string;
  content: string;
  user_id: string;
  created_at: string;
  updated_at: string;
}

export interface ThreadRecord {
  id: string;
  entity_type: ThreadEntityType;
  entity_id: string;
  contact_number: string;
  resolved: boolean;
  resolved_at: string | null;
  resolved_by: { id: string; name: string | null } | null;
  created_at: string;
  comments: CommentRecord[];
}

export interface TagRecord {
  name: string;
}

export interface CustomFieldRecord {
  key: string;
  label: string | null;
  type: CustomFieldType | null;
  options?: CustomFieldOption[];
  /** 'SVC' for fields created through the service; anything else is a CRM integration. */
  source: string;
  description?: string;
  /** Deleted fields are kept (and answer ATTRIBUTE_NOT_FOUND), as the description implies. */
  deleted: boolean;
}

export type CompanyRecord = DealCompany;

export interface PersonRecord {
  id: string;
  name: string | null;
  last_name: string | null;
  email: string | null;
  phone_numbers: string[];
  company_id: string | null;
  custom_fields: Record<string, string | number | boolean | null>;
  created_at: string;
  updated_at: string;
}

export interface DealRecord {
  id: string;
  name: string;
  status: string;
  amount: number;
  currency: string;
  closed_at: string | null;
  person_id: string | null;
  company_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface SummaryTemplateRecord {
  id: string;
  key: string;
  name: string;
  active: boolean;
  created_at: string;
}

/** The contract's queue entry (every field optional there), with the fields the sandbox always keeps. */
export type DialingQueueNumber = QueueNumberSchema &
  Required<Pick<QueueNumberSchema, 'number_to' | 'position' | 'created_at' | 'updated_at'>>;

/** The contract's queue, with the entries above. */
export type DialingQueueRecord = Omit<DialingQueue, 'numbers'> & { numbers: DialingQueueNumber[] };

/** A connected calendar; whether its owner is the current user depends on the key, so it is computed when read. */
export type CalendarRecord = Omit<Calendar, 'owner'> & { owner: Omit<CalendarOwner, 'is_current_user'> };

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface ReceptionistRecord {
  line: string;
  agent: ReceptionistAgent;
  prompt: { sections: JsonValue[] } | { custom_prompt: string };
  capabilities: { SCHEDULING: boolean; CALL_TRANSFER: boolean; WARM_TRANSFER: boolean };
  business_hours: { timezone: string; schedule: JsonValue[] };
  transfer_rules: JsonValue[];
  /** Ids of the team's connected calendars this receptionist books on. */
  calendar_ids: string[];
  knowledge: { text: string; websites: JsonValue[]; files: JsonValue[] };
}

export interface TeamRecord {
  id: string;
  name: string;
  /** Custom fields need the new contact model; 'LEGACY' teams answer TEAM_NOT_FOUND there. */
  contact_model: 'V2' | 'LEGACY';
  users: UserRecord[];
  lines: LineRecord[];
  contacts: ContactRecord[];
  conversations: ConversationRecord[];
  calls: CallRecord[];
  messages: MessageRecord[];
  notes: NoteRecord[];
  threads: ThreadRecord[];
  tags: TagRecord[];
  built_in_fields: string[];
  custom_fields: CustomFieldRecord[];
  companies: CompanyRecord[];
  people: PersonRecord[];
  deals: DealRecord[];
  summary_templates: SummaryTemplateRecord[];
  dialing_queues: DialingQueueRecord[];
  calendars: CalendarRecord[];
  receptionists: ReceptionistRecord[];
}

export interface SandboxState {
  keys: ApiKeyRecord[];
  teams: TeamRecord[];
}

export interface SeedFile extends SandboxState {
  _notice?: string;
}
